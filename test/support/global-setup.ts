import 'reflect-metadata';
import Module from 'node:module';
import { resolve } from 'node:path';
import { databaseUrl, FILE_DB_PREFIX, TEMPLATE_DB, withAdmin } from './database';

/**
 * Builds one migrated template database; each e2e file then clones it (CREATE DATABASE ...
 * TEMPLATE), so files run in parallel without sharing rows. Against a deployed sandbox
 * (E2E_BASE_URL) nothing is created here.
 */
export default async function globalSetup(): Promise<void> {
  if (process.env.E2E_BASE_URL) {
    return;
  }
  // Global setup runs outside Jest's module resolver: make `src/...` imports resolvable.
  process.env.NODE_PATH = resolve(__dirname, '..', '..');
  (Module as unknown as { _initPaths(): void })._initPaths();
  const { DataSource } = await import('typeorm');
  const { dataSourceOptions } = await import('src/core/database/data-source-options');
  const { runMigrations } = await import('src/core/database/migrate');

  await withAdmin(async (admin) => {
    const stale = await admin.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname LIKE $1 OR datname = $2`,
      [`${FILE_DB_PREFIX}%`, TEMPLATE_DB],
    );
    for (const { datname } of stale.rows) {
      await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    }
    await admin.query(`CREATE DATABASE "${TEMPLATE_DB}"`);
  });
  const dataSource = new DataSource(dataSourceOptions(databaseUrl(TEMPLATE_DB)));
  await dataSource.initialize();
  try {
    await runMigrations(dataSource);
  } finally {
    await dataSource.destroy();
  }
}
