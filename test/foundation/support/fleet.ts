import { closeAtFileEnd } from '../../support/open-contexts';
import { ApiProcess, startApiProcess } from './api-process';
import { startWorkerProcess, type WorkerProcess } from './worker-process';

/** API and worker processes of one deployment, all on the file's database and queue prefix. */
export interface Fleet {
  apis: ApiProcess[];
  workers: WorkerProcess[];
  /** kill -9 of every process still running. */
  killAll(): Promise<void>;
}

/**
 * Starts `apiCount` API processes and `workerCount` worker processes side by side (ts-node boots
 * are slow; in parallel they overlap), each with the test process's environment plus `env`, and
 * resolves once every API answers /health/live and every worker wrote its ready line. Processes
 * still running when the file ends are killed.
 */
export async function startFleet(
  env: Record<string, string>,
  counts: { apis: number; workers: number },
): Promise<Fleet> {
  const started: Array<{ kill(): Promise<void> }> = [];
  const killAll = async () => void (await Promise.all(started.map((p) => p.kill())));
  const forget = closeAtFileEnd(killAll);
  const track = <T extends { kill(): Promise<void> }>(p: Promise<T>) =>
    p.then((it) => (started.push(it), it));
  const apiBoots = Array.from({ length: counts.apis }, () => track(startApiProcess(env, 150_000)));
  const workerBoots = Array.from({ length: counts.workers }, () =>
    track(startWorkerProcess(env, { bootTimeoutMs: 150_000 })),
  );
  // Every boot ends before a failure is reported, so none is left running behind it.
  const failed = (await Promise.allSettled([...apiBoots, ...workerBoots])).find(
    (r) => r.status === 'rejected',
  );
  if (failed) {
    await killAll();
    throw (failed as PromiseRejectedResult).reason;
  }
  return {
    apis: await Promise.all(apiBoots),
    workers: await Promise.all(workerBoots),
    killAll: async () => {
      forget();
      await killAll();
    },
  };
}

/**
 * `err` with the API processes' last error log lines added to its message (what a 5xx they answered
 * was). A process writes the line before its answer, but this process may read the answer first
 * (two pipes): the lines are awaited for up to two seconds.
 */
export async function withErrorLogs(err: unknown, fleet: Fleet): Promise<unknown> {
  const lines = () => fleet.apis.flatMap((api) => api.errorLogs().map((line) => `${api.baseUrl} ${line}`));
  for (let waited = 0; lines().length === 0 && waited < 2000; waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (lines().length > 0 && err instanceof Error) {
    err.message += `\nError log lines of the API processes:\n${lines().join('\n')}`;
  }
  return err;
}
