import 'reflect-metadata';
import Module from 'node:module';
import { resolve } from 'node:path';
import { databaseUrl, newRunId, RUN_DB_PREFIX, runStartedAt, templateDb, withAdmin } from './database';
import { probeServer, remoteBaseUrl, runTenantPrefix } from './remote';

const STALE_AFTER_MS = 3 * 60 * 60 * 1000;

/**
 * Builds one migrated template database for this run; each e2e file then clones it
 * (CREATE DATABASE ... TEMPLATE), so files run in parallel without sharing rows. Against a
 * deployed sandbox (E2E_BASE_URL) nothing is created here.
 */
export default async function globalSetup(): Promise<void> {
  process.env.TEST_RUN_ID = newRunId();
  if (process.env.E2E_BASE_URL) {
    const facts = await probeServer(remoteBaseUrl());
    process.env.E2E_SERVER_APP_ENV = facts.appEnv;
    process.env.E2E_SERVER_PUBLIC_URL = facts.publicUrl;
    process.env.E2E_SERVER_DASHBOARD_URL = facts.dashboardUrl;
    process.stdout.write(
      `\nRemote mode: ${remoteBaseUrl()} (app_env ${facts.appEnv}), tenants named "${runTenantPrefix()}..."\n`,
    );
    return;
  }
  // Global setup runs outside Jest's module resolver: make `src/...` imports resolvable.
  process.env.NODE_PATH = resolve(__dirname, '..', '..');
  (Module as unknown as { _initPaths(): void })._initPaths();
  const { DataSource } = await import('typeorm');
  const { dataSourceOptions } = await import('src/core/database/data-source-options');
  const { runMigrations } = await import('src/core/database/migrate');

  await withAdmin(async (admin) => {
    // Leftovers of runs that died hours ago (a finished run drops its own in global-teardown).
    const old = await admin.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname LIKE $1`,
      [`${RUN_DB_PREFIX}%`],
    );
    for (const { datname } of old.rows) {
      const started = runStartedAt(datname);
      if (started === undefined || Date.now() - started > STALE_AFTER_MS) {
        await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
      }
    }
    await admin.query(`CREATE DATABASE "${templateDb()}"`);
  });
  const dataSource = new DataSource(dataSourceOptions(databaseUrl(templateDb())));
  await dataSource.initialize();
  try {
    await runMigrations(dataSource);
  } finally {
    await dataSource.destroy();
  }
}
