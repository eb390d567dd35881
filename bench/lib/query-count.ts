import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { Client } from 'pg';

const WRITE_INTERVAL_MS = 50;

/**
 * Counts the statements a server process sends to PostgreSQL (each one a round trip: BEGIN and
 * COMMIT included), for round trips per request. Active only when BENCH_QUERY_COUNT_FILE is set:
 * the running total is written to that file every 50 ms, where `readQueryCount` finds it. (Not on
 * a signal: the service's shutdown hooks take SIGUSR1/2 and the like as a reason to stop.)
 */
export function countQueries(): void {
  const file = process.env.BENCH_QUERY_COUNT_FILE;
  if (!file) {
    return;
  }
  let count = 0;
  let written = -1;
  const query = Client.prototype.query as (...args: unknown[]) => unknown;
  Client.prototype.query = function counted(this: Client, ...args: unknown[]) {
    count++;
    return query.apply(this, args);
  } as typeof Client.prototype.query;
  setInterval(() => {
    if (count !== written) {
      written = count;
      // Written beside and renamed over: a reader never sees the file empty mid-write (read as 0).
      writeFileSync(`${file}.next`, String(count));
      renameSync(`${file}.next`, file);
    }
  }, WRITE_INTERVAL_MS).unref();
}

/** The statement count a server started with BENCH_QUERY_COUNT_FILE=`file` has written, once settled. */
export async function readQueryCount(file: string): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 3 * WRITE_INTERVAL_MS));
  try {
    return Number(readFileSync(file, 'utf8')) || 0;
  } catch {
    return 0; // nothing sent yet
  }
}

/**
 * For an in-process bench: counts the statements this process sends to PostgreSQL and adds up the
 * time each one waits for its answer (round trip and execution; overlapping when queries run
 * concurrently). `read()` answers the totals so far.
 */
export function countQueriesInProcess(): { read(): { count: number; ms: number } } {
  let count = 0;
  let ms = 0;
  const query = Client.prototype.query as (...args: unknown[]) => unknown;
  Client.prototype.query = function timed(this: Client, ...args: unknown[]) {
    count++;
    const started = performance.now();
    const result = query.apply(this, args);
    if (result instanceof Promise) {
      void result.then(
        () => (ms += performance.now() - started),
        () => (ms += performance.now() - started),
      );
    }
    return result;
  } as typeof Client.prototype.query;
  return { read: () => ({ count, ms }) };
}
