import type { DataSourceOptions } from 'typeorm';
import { MIGRATIONS } from 'migrations/index';
import { SafeQueryLogger } from 'src/core/database/query-logger';

/** Connections per pool when DATABASE_POOL_MAX is not given (the CLI, test setup). */
export const DEFAULT_POOL_MAX = 20;

/**
 * Connection options shared by the app, the CLI and the test setup. Synchronize stays off.
 * Failed queries are logged without their parameter values (SafeQueryLogger).
 */
export function dataSourceOptions(url: string, poolMax = DEFAULT_POOL_MAX): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    synchronize: false,
    migrationsRun: false,
    migrations: MIGRATIONS,
    migrationsTableName: 'migrations',
    logger: new SafeQueryLogger(),
    logging: ['error', 'warn', 'migration'],
    extra: { max: poolMax },
  };
}
