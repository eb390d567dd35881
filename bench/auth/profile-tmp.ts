import 'reflect-metadata';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from 'src/core/database/data-source-options';
import { runMigrations } from 'src/core/database/migrate';
import { ApiKeyEntity } from 'src/core/tenancy/api-key.entity';
import { TenancyService } from 'src/core/tenancy/tenancy.service';
import { TenantEntity } from 'src/core/tenancy/tenant.entity';
async function main() {
  const DB = 'svc_bench_auth_prof';
  const admin = new Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${DB}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${DB}"`);
  await admin.end();
  const url = `postgres://postgres@127.0.0.1:5432/${DB}`;
  const ds = await new DataSource({
    ...dataSourceOptions(url),
    entities: [TenantEntity, ApiKeyEntity],
  }).initialize();
  await runMigrations(ds);
  const tenancy = new TenancyService(ds.getRepository(TenantEntity), ds.getRepository(ApiKeyEntity));
  const { test } = await tenancy.createTenant('Bench partner', [], false);
  await ds.destroy();
  process.stdout.write(`Basic ${Buffer.from(`${test.key.public_key}:${test.secret}`).toString('base64')}\n`);
}
void main();
