import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/**
 * Instruction counts of a server process, from valgrind's callgrind: steadier than time on a
 * shared machine, since they do not depend on what else runs. The server is the compiled
 * JavaScript (`npx tsc -p tsconfig.json --outDir <dir>`, passed as BENCH_BUILD_DIR) so ts-node's
 * start-up is not instrumented; counting is zeroed after the warm-up and dumped after the
 * measured requests, so start-up and JIT warm-up are left out.
 */
export interface CallgrindServer {
  port: number;
  child: ChildProcess;
  /** Zeroes the counts (call after warming up). */
  zero(): void;
  /** Instructions executed since the last zero: on the main thread, and on all threads. */
  instructions(): { main: number; all: number };
  stop(): Promise<void>;
}

export function buildDir(): string {
  const dir = process.env.BENCH_BUILD_DIR;
  if (!dir || !existsSync(dir)) {
    throw new Error(
      'BENCH_BUILD_DIR must name a directory built with: npx tsc -p tsconfig.json --outDir <dir>',
    );
  }
  return dir;
}

export function startUnderCallgrind(
  script: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<CallgrindServer> {
  const build = buildDir();
  const outDir = mkdtempSync(join(tmpdir(), 'callgrind-'));
  const compiled = join(build, script.replace(/\.ts$/, '.js'));
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      `--callgrind-out-file=${join(outDir, 'out.%p')}`,
      '--dump-instr=no',
      // One profile per thread: the main (JavaScript) thread is counted apart from the JIT
      // compiler and garbage-collector helper threads, whose work depends on timing.
      '--separate-threads=yes',
      '--compress-strings=no',
      process.execPath,
      '--max-semi-space-size=16',
      compiled,
      ...args,
    ],
    {
      cwd: ROOT,
      env: { ...process.env, NODE_PATH: build, LOG_LEVEL: 'silent', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const control = (flag: string) =>
    execFileSync('callgrind_control', [flag, String(child.pid)], { stdio: 'pipe' }).toString();
  return new Promise((resolve, reject) => {
    let out = '';
    child.stderr!.resume();
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = /LISTENING (\d+)/.exec(out);
      if (!match) {
        return;
      }
      child.stdout!.off('data', onData);
      child.stdout!.resume();
      resolve({
        port: Number(match[1]),
        child,
        zero: () => void control('-z'),
        instructions: () => {
          for (const f of readdirSync(outDir)) {
            rmSync(join(outDir, f));
          }
          control('-d');
          let main = 0;
          let all = 0;
          for (const f of readdirSync(outDir)) {
            const text = readFileSync(join(outDir, f), 'utf8');
            const count = Number(/^(?:summary|totals): (\d+)/m.exec(text)?.[1] ?? 0);
            all += count;
            if (/^thread: 1$/m.test(text) || f.endsWith('-01')) {
              main = count;
            }
          }
          return { main, all };
        },
        stop: () =>
          new Promise<void>((done) => {
            child.once('exit', () => {
              rmSync(outDir, { recursive: true, force: true });
              done();
            });
            child.kill('SIGTERM');
          }),
      });
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${script} under valgrind exited with ${code}`)));
  });
}
