import type { DataSourceOptions } from 'typeorm';
import { MIGRATIONS } from 'migrations/index';
import { SafeQueryLogger } from 'src/core/database/query-logger';

/** Connections per pool when DATABASE_POOL_MAX is not given (the CLI, test setup). */
export const DEFAULT_POOL_MAX = 20;
/** How long a connection is waited for when DATABASE_POOL_WAIT_MS is not given. */
export const DEFAULT_POOL_WAIT_MS = 30_000;

/**
 * Connection options shared by the app, the CLI and the test setup. Synchronize stays off.
 * Failed queries are logged without their parameter values (SafeQueryLogger).
 */
export function dataSourceOptions(
  url: string,
  poolMax = DEFAULT_POOL_MAX,
  poolWaitMs = DEFAULT_POOL_WAIT_MS,
): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    synchronize: false,
    migrationsRun: false,
    migrations: MIGRATIONS,
    migrationsTableName: 'migrations',
    logger: new SafeQueryLogger(),
    logging: ['error', 'warn', 'migration'],
    // node-postgres bounds both the wait for a busy pool's next free connection and a new
    // connection's opening by connectionTimeoutMillis ("timeout exceeded when trying to connect").
    extra: { max: poolMax, connectionTimeoutMillis: poolWaitMs },
  };
}
