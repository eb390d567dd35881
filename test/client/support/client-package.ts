import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** clients/typescript, the package partners install. */
export const CLIENT_DIR = join(__dirname, '..', '..', '..', 'clients', 'typescript');

/**
 * The built CommonJS entry of @investment-service/client, as a partner's `require` gets it.
 * scripts/test.sh builds it (`npm ci && npm run build` in clients/typescript) before jest runs.
 */
export function loadClientPackage(): any {
  const entry = join(CLIENT_DIR, 'dist', 'cjs', 'index.js');
  if (!existsSync(entry)) {
    throw new Error(
      'clients/typescript is not built: run `npm ci && npm run build` there (scripts/test.sh does).',
    );
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(entry);
}
