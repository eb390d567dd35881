import type { DataSourceOptions } from 'typeorm';
import { MIGRATIONS } from 'migrations/index';

/** Connection options shared by the app, the CLI and the test setup. Synchronize stays off. */
export function dataSourceOptions(url: string): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    synchronize: false,
    migrationsRun: false,
    migrations: MIGRATIONS,
    migrationsTableName: 'migrations',
    extra: { max: 20 },
  };
}
