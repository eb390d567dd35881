import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { spawnTs } from '../../support/ts-process';

/** Ports this project's tests may give a server process of their own. */
const RANGE = { first: 3200, slices: 3, size: 30 };
/**
 * This Jest worker's own slice of them. A process boots for many seconds before it binds its
 * port, and a port probed free by two workers meanwhile went to both: the second process then
 * failed to bind while its file talked to the first (another file's database: 401 for its keys).
 */
const PORTS = (() => {
  const worker = (Number(process.env.JEST_WORKER_ID ?? '1') - 1) % RANGE.slices;
  const first = RANGE.first + worker * RANGE.size;
  return { first, last: first + RANGE.size - 1 };
})();
/** Ports this test process gave out: processes started side by side never get the same one. */
const givenOut = new Set<number>();

export interface ApiProcess {
  baseUrl: string;
  pid: number;
  /** kill -9: the process gets no chance to finish anything. */
  kill(): Promise<void>;
  /** What the process wrote to stderr (for failure messages). */
  stderr(): string;
  /** Its last log lines at level error or above (with LOG_LEVEL error or lower), for failure messages. */
  errorLogs(): string[];
}

/** pino's numeric levels: 50 error, 60 fatal. */
const ERROR_LINE = /"level":(5|6)0[,}]/;
const KEPT_ERROR_LINES = 50;

/** Reads a process's stdout to the end (a full pipe would stop it), keeping its last error lines. */
function keepErrorLines(child: ChildProcess): () => string[] {
  const kept: string[] = [];
  let pending = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    const lines = (pending + chunk.toString()).split('\n');
    pending = lines.pop() ?? '';
    kept.push(...lines.filter((line) => ERROR_LINE.test(line)));
    kept.splice(0, Math.max(0, kept.length - KEPT_ERROR_LINES));
  });
  return () => [...kept];
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer()
      .once('error', () => resolve(false))
      .listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

async function freePort(): Promise<number> {
  const span = PORTS.last - PORTS.first + 1;
  const offset = Math.floor(Math.random() * span);
  for (let i = 0; i < span; i++) {
    const port = PORTS.first + ((offset + i) % span);
    if (givenOut.has(port)) {
      continue;
    }
    givenOut.add(port); // before the probe: a boot beside this one skips it meanwhile
    if (await portIsFree(port)) {
      return port;
    }
    givenOut.delete(port);
  }
  throw new Error(`No free port in ${PORTS.first}-${PORTS.last}.`);
}

/**
 * Starts the real API (src/main.ts through ts-node) as a separate process on this machine, with
 * the test process's environment plus `env`, and waits until it answers /health/live.
 */
export async function startApiProcess(
  env: Record<string, string>,
  bootTimeoutMs = 90_000,
): Promise<ApiProcess> {
  const port = await freePort();
  const child = spawnTs('src/main.ts', { ...env, PORT: String(port) }, ['ignore', 'pipe', 'pipe']);
  const errorLogs = keepErrorLines(child);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-20_000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + bootTimeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`The API process exited while starting: ${stderr}`);
    }
    const live = await fetch(`${baseUrl}/health/live`).then(
      (res) => res.status === 200,
      () => false,
    );
    if (live) {
      break;
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`The API process did not start within ${bootTimeoutMs} ms: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    baseUrl,
    pid: child.pid as number,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
      }
      await exited;
    },
    stderr: () => stderr,
    errorLogs,
  };
}
