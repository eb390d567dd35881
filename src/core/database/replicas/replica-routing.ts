import { Logger } from '@nestjs/common';
import type { DataSource, QueryRunner, ReplicationMode } from 'typeorm';
import { currentReadContext } from 'src/core/database/replicas/read-context';
import type { ChangeMarks } from 'src/core/database/replicas/change-marks';
import type { Replica, ReplicaSet } from 'src/core/database/replicas/replica-set';

/**
 * Statements a replica can answer: a plain SELECT (or WITH … SELECT) that locks nothing and
 * writes nothing. Anything else (or anything a replica refuses anyway) runs on the primary.
 */
const PLAIN_READ = /^\s*(SELECT|WITH)\b/i;
const NOT_PLAIN =
  /\b(INSERT|UPDATE|DELETE|MERGE|FOR\s+(NO\s+KEY\s+)?UPDATE|FOR\s+(KEY\s+)?SHARE|nextval|setval|pg_advisory\w*|set_config|pg_notify)\b/i;

export function isPlainRead(sql: string): boolean {
  return PLAIN_READ.test(sql) && !NOT_PLAIN.test(sql);
}

type RunQuery = (query: string, parameters?: unknown[], structured?: boolean) => Promise<unknown>;

async function readOn(
  replica: Replica,
  query: string,
  parameters: unknown[] | undefined,
  structured?: boolean,
) {
  const runner = replica.dataSource.createQueryRunner();
  try {
    const result = structured
      ? await runner.query(query, parameters, true)
      : await runner.query(query, parameters);
    replica.reads++;
    return result;
  } finally {
    await runner.release();
  }
}

/**
 * A request that writes while it reads (a list that first sequences what committed since the
 * last read) reads the rest of its way from the primary: no replica has its write yet.
 */
function primaryFromNowOn(): void {
  const context = currentReadContext();
  if (context) {
    context.open = false;
  }
}

/**
 * Sends the primary DataSource's plain reads to a replica while a @ReadsMayLag() route (or work
 * run with withReplicaReads) is in progress: `dataSource.query` outside a transaction, and the
 * query runners TypeORM asks for in `slave` mode (find, query builders' reads), to a replica
 * that replayed the caller's last write and caught up since the last change marked for the
 * tenant (ChangeMarks). Transactions, writes and locking reads keep the primary. A replica that fails a read (gone, restarting,
 * refusing a statement) hands it to the primary: a read never fails because of a replica.
 */
export function routeReadsToReplicas(primary: DataSource, replicas: ReplicaSet, marks: ChangeMarks): void {
  const logger = new Logger('Replicas');
  const onPrimary = primary.query.bind(primary);
  const createQueryRunner = primary.createQueryRunner.bind(primary);

  /**
   * The replica for this read, if one may serve it. The change marks are read now, not when the
   * request began: a cache refilled after a change was announced must not refill from before it.
   */
  const replicaFor = (query: string): Replica | undefined => {
    const context = currentReadContext();
    if (!context || !isPlainRead(query)) {
      return undefined;
    }
    return replicas.choose(context.minLsn, marks.requiredFor(context.tenant));
  };

  const withFallback = async (query: string, run: RunQuery, parameters?: unknown[], structured?: boolean) => {
    if (!isPlainRead(query)) {
      primaryFromNowOn();
    }
    const replica = replicaFor(query);
    if (replica) {
      try {
        return await readOn(replica, query, parameters, structured);
      } catch (err) {
        logger.warn(
          `Read replica ${replica.index} failed a read, the primary answers: ${(err as Error).message}`,
        );
      }
    }
    return run(query, parameters, structured);
  };

  primary.query = ((query: string, parameters?: unknown[], queryRunner?: QueryRunner) =>
    queryRunner
      ? onPrimary(query, parameters, queryRunner)
      : withFallback(query, (q, p) => onPrimary(q, p), parameters)) as DataSource['query'];

  primary.createQueryRunner = (mode: ReplicationMode = 'master'): QueryRunner => {
    const runner = createQueryRunner(mode);
    if (mode === 'master' && currentReadContext()) {
      const startTransaction = runner.startTransaction.bind(runner);
      runner.startTransaction = (level) => {
        primaryFromNowOn();
        return startTransaction(level);
      };
    }
    if (mode === 'slave' && currentReadContext()) {
      // The primary's runner connects only when a read falls back to it.
      const runOnPrimary = runner.query.bind(runner) as RunQuery;
      runner.query = ((query: string, parameters?: unknown[], structured?: boolean) =>
        withFallback(query, runOnPrimary, parameters, structured)) as QueryRunner['query'];
    }
    return runner;
  };
}
