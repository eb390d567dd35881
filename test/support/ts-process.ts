import { ChildProcess, spawn, StdioOptions } from 'node:child_process';
import { join } from 'node:path';

/** The project's root: the working directory of the processes tests start. */
export const ROOT = join(__dirname, '..', '..');

/**
 * Starts `script` (a path, or one relative to ROOT) through ts-node with the project's path
 * aliases, with the test process's environment plus `env`: the real entry points (src/main.ts,
 * src/worker.ts) or a spec's own wrapper of them. `nodeArgs`: options for node itself.
 */
export function spawnTs(
  script: string,
  env: Record<string, string>,
  stdio: StdioOptions,
  nodeArgs: string[] = [],
): ChildProcess {
  return spawn(
    process.execPath,
    [...nodeArgs, '-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', script],
    { cwd: ROOT, env: { ...process.env, ...env }, stdio },
  );
}

/**
 * Runs `script` (logging silenced, stderr shown) to its end: resolves with the signal that ended it
 * or its exit code. For crash specs whose script kills itself at a chosen point.
 */
export function runTsToExit(
  script: string,
  env: Record<string, string>,
): Promise<NodeJS.Signals | number | null> {
  const child = spawnTs(script, { LOG_LEVEL: 'silent', ...env }, ['ignore', 'ignore', 'inherit']);
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
}

/**
 * Runs a probe of V8's behaviour (test/support/probes) under `--allow-natives-syntax`, with the test
 * process's environment plus `env`, and resolves with the one JSON line it printed.
 */
export function runNativesProbe<T>(script: string, env: Record<string, string> = {}): Promise<T> {
  const child = spawnTs(script, env, ['ignore', 'pipe', 'inherit'], ['--allow-natives-syntax']);
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve, reject) =>
    child.once('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out.trim()) as T) : reject(new Error(`${script} exited with ${code}`)),
    ),
  );
}
