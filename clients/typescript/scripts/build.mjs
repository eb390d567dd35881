// Builds dist/esm (ES modules) and dist/cjs (CommonJS), each with its declarations and a
// package.json stating its module type, so both `import` and `require` get the right files.
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
rmSync(join(root, 'dist'), { recursive: true, force: true });
for (const [config, dir, type] of [
  ['tsconfig.json', 'esm', 'module'],
  ['tsconfig.cjs.json', 'cjs', 'commonjs'],
]) {
  execFileSync(process.execPath, [tsc, '-p', join(root, config)], { stdio: 'inherit' });
  writeFileSync(join(root, 'dist', dir, 'package.json'), `${JSON.stringify({ type }, null, 2)}\n`);
}
process.stdout.write('built dist/esm and dist/cjs\n');
