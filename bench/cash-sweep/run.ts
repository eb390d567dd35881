import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from 'src/core/database/data-source-options';
import { runMigrations } from 'src/core/database/migrate';
import { newUuid } from 'src/core/ids/ids';
import { ApiKeyEntity } from 'src/core/tenancy/api-key.entity';
import { TenancyService } from 'src/core/tenancy/tenancy.service';
import { TenantEntity } from 'src/core/tenancy/tenant.entity';

/**
 * The ledger read of one day of cash sweep accrual: every enrolled account's settled cash at the
 * day's end. Candidate: `cashAtMany` (one grouped query, what the accrual job uses); baseline: one
 * `cashAt` query per account (what it did first). In-process against PostgreSQL, no server; rounds
 * alternate so noise hits both alike. Reports the median wall time of each and their ratio.
 */
const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB = 'svc_bench_cash_sweep';
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const DEPOSITS_PER_ACCOUNT = 3;

async function prepareDatabase(): Promise<{ url: string; tenantId: string }> {
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${DB}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${DB}"`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${DB}`;
  const ds = await new DataSource({
    ...dataSourceOptions(url.toString()),
    entities: [TenantEntity, ApiKeyEntity],
  }).initialize();
  await runMigrations(ds);
  const tenancy = new TenancyService(ds.getRepository(TenantEntity), ds.getRepository(ApiKeyEntity));
  const { tenant } = await tenancy.createTenant('Bench partner', [], false);
  await ds.destroy();
  return { url: url.toString(), tenantId: tenant.id };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  const { url, tenantId } = await prepareDatabase();
  process.env.DATABASE_URL = url;
  // Imported after DATABASE_URL is set: configuration is read when the modules load.
  const { AppConfigModule } = await import('src/core/config/config.module');
  const { DatabaseModule } = await import('src/core/database/database.module');
  const { LoggingModule } = await import('src/core/logging/logging.module');
  const { TenancyModule } = await import('src/core/tenancy/tenancy.module');
  const { LedgerModule } = await import('src/modules/ledger/ledger.module');
  const { LedgerService } = await import('src/modules/ledger/ledger.service');

  @Module({ imports: [AppConfigModule, LoggingModule, DatabaseModule, TenancyModule, LedgerModule] })
  class BenchModule {}

  const app = await NestFactory.createApplicationContext(BenchModule, { logger: false });
  const ledger = app.get(LedgerService);
  const dataSource = app.get(DataSource);
  const scope = { tenantId, livemode: false };
  const accounts = Array.from({ length: ACCOUNTS }, () => newUuid());
  const start = new Date('2027-03-01T15:00:00Z');
  for (const [i, account] of accounts.entries()) {
    await dataSource.transaction(async (m) => {
      for (let d = 0; d < DEPOSITS_PER_ACCOUNT; d++) {
        await ledger.post(m, {
          ...scope,
          journalKey: `bench:${account}:${d}`,
          kind: 'bench.deposit',
          effectiveAt: new Date(start.getTime() + d * 86_400_000),
          entries: [
            {
              account: { kind: 'bank_clearing', currency: 'USD' },
              direction: 'debit',
              amount: `${100 + i}.00`,
            },
            {
              account: { kind: 'investor_cash', ownerId: account, currency: 'USD' },
              direction: 'credit',
              amount: `${100 + i}.00`,
            },
          ],
        });
      }
    });
  }
  const endOfDay = new Date('2027-03-02T04:59:59.999Z');
  const perAccount = async () => {
    const out = new Map<string, unknown>();
    for (const account of accounts) {
      out.set(account, await ledger.cashAt(scope, account, 'USD', endOfDay));
    }
    return out;
  };
  const oneQuery = () => ledger.cashAtMany(scope, accounts, 'USD', endOfDay);

  const sameAnswer =
    JSON.stringify([...(await perAccount()).values()]) === JSON.stringify([...(await oneQuery()).values()]);
  const baseline: number[] = [];
  const candidate: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    let t = performance.now();
    await perAccount();
    baseline.push(performance.now() - t);
    t = performance.now();
    await oneQuery();
    candidate.push(performance.now() - t);
  }
  const b = median(baseline);
  const c = median(candidate);
  console.log(
    JSON.stringify(
      {
        benchmark: 'cash-sweep day read',
        accounts: ACCOUNTS,
        rounds: ROUNDS,
        same_answer: sameAnswer,
        per_account_queries_ms: Number(b.toFixed(1)),
        one_query_ms: Number(c.toFixed(1)),
        speedup: Number((b / c).toFixed(1)),
      },
      null,
      2,
    ),
  );
  await app.close();
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${DB}" WITH (FORCE)`);
  await admin.end();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
