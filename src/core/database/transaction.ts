import type { PoolClient } from 'pg';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import type { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';

/** The parts of TypeORM's query runner state that its own transaction methods keep. */
type TransactionState = { transactionDepth: number };

/** A transaction statement, failing as TypeORM's `runner.query` does (logged, QueryFailedError). */
async function control(runner: PostgresQueryRunner, client: PoolClient, text: string): Promise<void> {
  try {
    await client.query(text);
  } catch (err) {
    runner.connection.logger.logQueryError(err as Error, text, [], runner);
    throw new QueryFailedError(text, [], err as Error);
  }
}

/**
 * `dataSource.transaction(work)` for the hot write paths, with the same connection, isolation
 * (READ COMMITTED), rollback on any error and EntityManager as TypeORM's: only BEGIN, COMMIT and
 * ROLLBACK go to the pooled connection directly instead of through the query runner's query
 * path (its event broadcasts, logging and timing cost more CPU than the statements themselves, and
 * the service registers no transaction subscribers to hear them). The query runner is marked as in
 * a transaction, so `manager.transaction` inside `work` opens a savepoint as it would under
 * TypeORM's own transaction.
 */
export async function runInTransaction<T>(
  dataSource: DataSource,
  work: (manager: EntityManager) => Promise<T>,
): Promise<T> {
  const runner = dataSource.createQueryRunner() as PostgresQueryRunner;
  const state = runner as unknown as TransactionState;
  try {
    const client = (await runner.connect()) as PoolClient;
    await control(runner, client, 'BEGIN');
    runner.isTransactionActive = true;
    state.transactionDepth = 1;
    try {
      const result = await work(runner.manager);
      await control(runner, client, 'COMMIT');
      return result;
    } catch (err) {
      try {
        await control(runner, client, 'ROLLBACK');
      } catch {
        // The original error is the one to report (as TypeORM's transaction does).
      }
      throw err;
    } finally {
      runner.isTransactionActive = false;
      state.transactionDepth = 0;
    }
  } finally {
    await runner.release();
  }
}
