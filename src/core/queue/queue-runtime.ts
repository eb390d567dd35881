/** What this process does with queues: only produce (API without in-process worker, CLI) or also consume. */
export class QueueRuntime {
  constructor(readonly runsConsumers: boolean) {}
}

/** Rejects when `promise` takes longer than `ms` (Redis unreachable: ioredis would keep queueing). */
export async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
