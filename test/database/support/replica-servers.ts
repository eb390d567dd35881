import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';

const SCRIPT = join(__dirname, '..', '..', '..', 'scripts', 'pg-replica.sh');
const ENV = { ...process.env, PG_REPLICA_BASE_PORT: '5441' };

/** A primary and its streaming replica of this file's own (scripts/pg-replica.sh), logging every statement. */
export interface ReplicaServers {
  /** postgres:// URL of `database` on the primary and on the replica. */
  primaryUrl(database: string, applicationName: string): string;
  replicaUrl(database: string, applicationName: string): string;
  /** Runs SQL on the primary's or the replica's `database`. */
  sql(on: 'primary' | 'replica', database: string, text: string): Promise<unknown[]>;
  /**
   * Counts the reads (SELECT statements) each server ran for `applicationName` while `work` ran,
   * from the servers' own statement logs; the replica monitor's position queries are left out.
   */
  readsDuring(
    applicationName: string,
    work: () => Promise<void>,
  ): Promise<{ primary: number; replica: number }>;
  /** Runs `work` with the replica's replay paused (it stays connected, falling behind), then resumes it. */
  whileReplayPaused<T>(work: () => Promise<T>): Promise<T>;
  stopReplica(): void;
  startReplica(): void;
  stop(): void;
}

export function startReplicaServers(): ReplicaServers {
  const [primary, replica, primaryLog, replicaLog] = execFileSync('bash', [SCRIPT, 'start'], { env: ENV })
    .toString()
    .trim()
    .split(' ');
  const urlOf = (base: string, database: string, applicationName: string) =>
    `${base.replace(/\/postgres$/, `/${database}`)}?application_name=${applicationName}`;
  const sql = async (on: 'primary' | 'replica', database: string, text: string) => {
    const client = new Client({
      connectionString: urlOf(on === 'primary' ? primary : replica, database, 'test'),
    });
    await client.connect();
    try {
      return (await client.query(text)).rows as unknown[];
    } finally {
      await client.end();
    }
  };
  return {
    primaryUrl: (database, name) => urlOf(primary, database, name),
    replicaUrl: (database, name) => urlOf(replica, database, name),
    sql,
    async whileReplayPaused(work) {
      await sql('replica', 'postgres', 'SELECT pg_wal_replay_pause()');
      try {
        return await work();
      } finally {
        await sql('replica', 'postgres', 'SELECT pg_wal_replay_resume()');
      }
    },
    async readsDuring(applicationName, work) {
      const before = { primary: logLength(primaryLog), replica: logLength(replicaLog) };
      await work();
      // The servers write their log lines as they run each statement; a moment lets the last land.
      await new Promise((resolve) => setTimeout(resolve, 300));
      return {
        primary: readsIn(primaryLog, before.primary, applicationName),
        replica: readsIn(replicaLog, before.replica, applicationName),
      };
    },
    stopReplica: () => execFileSync('bash', [SCRIPT, 'stop-replica'], { env: ENV }),
    startReplica: () => execFileSync('bash', [SCRIPT, 'start-replica'], { env: ENV }),
    stop: () => execFileSync('bash', [SCRIPT, 'stop'], { env: ENV }),
  };
}

function logLength(path: string): number {
  return readFileSync(path).length;
}

/** SELECT statements logged after byte `from` by connections named `applicationName`. */
function readsIn(path: string, from: number, applicationName: string): number {
  return readFileSync(path)
    .subarray(from)
    .toString('utf8')
    .split('\n')
    .filter((line) => line.includes(` ${applicationName} LOG:`))
    .filter((line) => /(statement|execute [^:]*): \s*(SELECT|WITH)\b/i.test(line))
    .filter((line) => !/pg_(current_wal|last_wal_replay)_lsn/.test(line)).length;
}
