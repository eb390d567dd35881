import { Client } from 'pg';

/** Admin connection (to the maintenance database) used to create and drop test databases. */
export function adminUrl(): string {
  const url = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  url.pathname = '/postgres';
  return url.toString();
}

export function databaseUrl(name: string): string {
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

/** The database `name` on TEST_DATABASE_REPLICA_URL's replica, when the suite runs with one. */
export function replicaDatabaseUrl(name: string): string | undefined {
  if (!process.env.TEST_DATABASE_REPLICA_URL) {
    return undefined;
  }
  const url = new URL(process.env.TEST_DATABASE_REPLICA_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Each jest run names its databases after its own run id (set by global-setup, inherited by
 * the workers), so two runs on one machine never drop each other's databases.
 */
export function runId(): string {
  const id = process.env.TEST_RUN_ID;
  if (!id) {
    throw new Error('TEST_RUN_ID is not set: e2e specs run through jest with test/support/global-setup.ts');
  }
  return id;
}

export const RUN_DB_PREFIX = 'svc_test_';
export const templateDb = (): string => `${RUN_DB_PREFIX}${runId()}_template`;
export const fileDbPrefix = (): string => `${RUN_DB_PREFIX}${runId()}_f_`;

/** Run ids carry their start time (seconds, base 36) so stale runs' leftovers can be found. */
export function newRunId(): string {
  return `r${Math.floor(Date.now() / 1000).toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

export function runStartedAt(name: string): number | undefined {
  const match = /^svc_test_r([0-9a-z]{6})[0-9a-z]{0,4}_/.exec(name);
  return match ? parseInt(match[1], 36) * 1000 : undefined;
}

export async function withAdmin<T>(fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * Waits until each read replica of the app under test (DATABASE_REPLICA_URLS) has replayed what its
 * primary (DATABASE_URL) holds now. A change made outside a request (plain SQL in a test, a row the
 * app writes after answering) leaves no change mark, so until then a read that may lag can be
 * answered from a replica up to DATABASE_REPLICA_MAX_LAG_MS behind it. No replicas: returns at once.
 */
export async function replicasCaughtUp(): Promise<void> {
  const urls = (process.env.DATABASE_REPLICA_URLS ?? '').split(',').filter((url) => url.trim());
  if (urls.length === 0 || !process.env.DATABASE_URL) {
    return;
  }
  const primary = new Client({ connectionString: process.env.DATABASE_URL });
  await primary.connect();
  const lsn = await primary
    .query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS "lsn"')
    .then(({ rows }) => rows[0].lsn)
    .finally(() => primary.end());
  for (const url of urls) {
    const replica = new Client({ connectionString: url.trim() });
    await replica.connect();
    try {
      for (let waited = 0; ; waited += 20) {
        const { rows } = await replica.query<{ done: boolean }>(
          'SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS "done"',
          [lsn],
        );
        if (rows[0].done) {
          break;
        }
        if (waited >= 20_000) {
          throw new Error(`the replica ${url} did not replay ${lsn} within 20 s`);
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      await replica.end();
    }
  }
}
