import type { DataSourceOptions } from 'typeorm';
import { MIGRATIONS } from 'migrations/index';
import { SafeQueryLogger } from 'src/core/database/query-logger';

/**
 * Connection options shared by the app, the CLI and the test setup. Synchronize stays off.
 * Failed queries are logged without their parameter values (SafeQueryLogger).
 */
export function dataSourceOptions(url: string): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    synchronize: false,
    migrationsRun: false,
    migrations: MIGRATIONS,
    migrationsTableName: 'migrations',
    logger: new SafeQueryLogger(),
    logging: ['error', 'warn', 'migration'],
    extra: { max: 20 },
  };
}
