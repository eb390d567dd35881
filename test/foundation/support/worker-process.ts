import { join } from 'node:path';
import { ROOT, spawnTs } from '../../support/ts-process';
import { WORKER_READY_MSG, type WorkerReadyLine } from 'src/worker-ready';

/** The real worker entry; specs that wrap WorkerModule (crash hooks) pass their own script. */
const WORKER_SCRIPT = join(ROOT, 'src', 'worker.ts');

export interface WorkerProcess {
  pid: number;
  /** The ready line the worker wrote (src/worker-ready.ts). */
  ready: WorkerReadyLine;
  /** kill -9: the process gets no chance to finish anything; resolves once it has exited. */
  kill(): Promise<void>;
  /** SIGTERM (the worker closes its queues and connections); resolves once it has exited. */
  stop(): Promise<void>;
  /** Resolves with the signal that ended the process, or its exit code. */
  exited(): Promise<NodeJS.Signals | number | null>;
  /** The last of what the process wrote to stderr (for failure messages). */
  stderr(): string;
}

/** The ready line among these stdout lines, if one is there. */
function readyLineIn(lines: string[]): WorkerReadyLine | undefined {
  for (const line of lines) {
    if (line.startsWith(`{"msg":"${WORKER_READY_MSG}"`)) {
      return JSON.parse(line) as WorkerReadyLine;
    }
  }
  return undefined;
}

/**
 * Starts a worker process (src/worker.ts through ts-node, or `script`) with the test process's
 * environment plus `env`, and resolves once it wrote its ready line. Fails when it exits first or
 * does not get ready within `bootTimeoutMs`.
 */
export function startWorkerProcess(
  env: Record<string, string> = {},
  options: { script?: string; bootTimeoutMs?: number } = {},
): Promise<WorkerProcess> {
  const bootTimeoutMs = options.bootTimeoutMs ?? 90_000;
  const child = spawnTs(options.script ?? WORKER_SCRIPT, env, ['ignore', 'pipe', 'pipe']);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-20_000)));
  const ended = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ?? code)),
  );
  const handle = (ready: WorkerReadyLine): WorkerProcess => ({
    pid: child.pid as number,
    ready,
    kill: () => signal('SIGKILL'),
    stop: () => signal('SIGTERM'),
    exited: () => ended,
    stderr: () => stderr,
  });
  const signal = async (name: NodeJS.Signals): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill(name);
    }
    await ended;
  };
  return new Promise((resolve, reject) => {
    let pending = '';
    let ready: WorkerReadyLine | undefined;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`The worker did not get ready within ${bootTimeoutMs} ms: ${stderr}`));
    }, bootTimeoutMs);
    // Read to the end (a full pipe would stop the worker), looking for the line until it came.
    child.stdout!.on('data', (chunk: Buffer) => {
      if (ready) {
        return;
      }
      const lines = (pending + chunk.toString()).split('\n');
      pending = lines.pop() ?? '';
      ready = readyLineIn(lines);
      if (ready) {
        clearTimeout(timer);
        resolve(handle(ready));
      }
    });
    void ended.then((how) => {
      clearTimeout(timer);
      reject(new Error(`The worker exited (${String(how)}) before it was ready: ${stderr}`));
    });
  });
}
