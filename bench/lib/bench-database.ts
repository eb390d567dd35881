import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from 'src/core/database/data-source-options';
import { runMigrations } from 'src/core/database/migrate';
import { ApiKeyEntity } from 'src/core/tenancy/api-key.entity';
import { TenancyService } from 'src/core/tenancy/tenancy.service';
import { TenantEntity } from 'src/core/tenancy/tenant.entity';

/** The server the in-process benches make their own database on (as the tests do). */
export const BENCH_ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function onAdmin(sql: string[]): Promise<void> {
  const admin = new Client({ connectionString: BENCH_ADMIN_URL });
  await admin.connect();
  try {
    for (const statement of sql) {
      await admin.query(statement);
    }
  } finally {
    await admin.end();
  }
}

/**
 * A fresh, migrated database `name` (dropped first if a previous run left it) holding one sandbox
 * tenant made as the service makes it, and the HTTP Basic authorization of its test key. Sets
 * DATABASE_URL to it, so modules imported afterwards connect there.
 */
export async function prepareBenchDatabase(
  name: string,
): Promise<{ url: string; tenantId: string; authorization: string }> {
  await onAdmin([`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`, `CREATE DATABASE "${name}"`]);
  const url = new URL(BENCH_ADMIN_URL);
  url.pathname = `/${name}`;
  const ds = await new DataSource({
    ...dataSourceOptions(url.toString()),
    entities: [TenantEntity, ApiKeyEntity],
  }).initialize();
  try {
    await runMigrations(ds);
    const tenancy = new TenancyService(ds.getRepository(TenantEntity), ds.getRepository(ApiKeyEntity));
    const { tenant, test } = await tenancy.createTenant('Bench partner', [], false);
    process.env.DATABASE_URL = url.toString();
    const credentials = Buffer.from(`${test.key.public_key}:${test.secret}`).toString('base64');
    return { url: url.toString(), tenantId: tenant.id, authorization: `Basic ${credentials}` };
  } finally {
    await ds.destroy();
  }
}

/** Drops a database prepareBenchDatabase made. */
export function dropBenchDatabase(name: string): Promise<void> {
  return onAdmin([`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`]);
}
