import 'reflect-metadata';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { depositBody, linkedInvestors } from 'bench/lib/funded-investors';
import { runThreeWay } from 'bench/lib/three-way';
import { dataSourceOptions } from 'src/core/database/data-source-options';
import { runMigrations } from 'src/core/database/migrate';
import { ApiKeyEntity } from 'src/core/tenancy/api-key.entity';
import { TenancyService } from 'src/core/tenancy/tenancy.service';
import { TenantEntity } from 'src/core/tenancy/tenant.entity';

/**
 * Deposit creation (POST /v1/wallet/accounts/{id}/funding with an Idempotency-Key: auth, rate limit,
 * validation, idempotency reservation, account and bank account checks, transfer row, ledger hold,
 * outbox event, scheduled processing step and stored response in one transaction) against a bare
 * node:http + pg server inserting each request in a single-insert transaction (ratio reported) and
 * against the same-work server replaying the deposit's own statements (bench/lib/three-way.ts;
 * target: same_work_ratio >= 0.6).
 */
const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB = process.env.BENCH_TRANSFERS_DB ?? 'svc_bench_transfers';
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 64);

async function prepareDatabase(): Promise<{ url: string; authorization: string }> {
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
  await ds.query(
    'CREATE TABLE bench_deposits (id uuid PRIMARY KEY, path text NOT NULL, body jsonb NOT NULL)',
  );
  const tenancy = new TenancyService(ds.getRepository(TenantEntity), ds.getRepository(ApiKeyEntity));
  const { test } = await tenancy.createTenant('Bench partner', [], false);
  await ds.destroy();
  return {
    url: url.toString(),
    authorization: `Basic ${Buffer.from(`${test.key.public_key}:${test.secret}`).toString('base64')}`,
  };
}

/** ACTIVE investors with a linked bank account each (made through the API), and their deposit. */
async function fundableAccounts(
  port: number,
  authorization: string,
): Promise<Array<{ path: string; body: string }>> {
  return (await linkedInvestors(port, authorization, ACCOUNTS)).map((investor) => ({
    path: `/v1/wallet/accounts/${investor.accountId}/funding`,
    body: JSON.stringify(depositBody(investor.bankAccountId)),
  }));
}

async function main(): Promise<void> {
  const { url, authorization } = await prepareDatabase();
  const { made: accounts, report: r } = await runThreeWay({
    bench: 'transfers',
    url,
    authorization,
    appEnv: {
      MIGRATE_ON_START: 'false',
      // The API as deployed beside a worker: the relays and job consumers run elsewhere.
      WORKER_IN_PROCESS: 'false',
      RATE_LIMIT_BURST: '10000000',
      RATE_LIMIT_PER_SECOND: '10000000',
      LOG_LEVEL: 'info',
    },
    setUp: async (port) => {
      const made = await fundableAccounts(port, authorization);
      return { paths: made.map((a) => a.path), body: (i) => made[i % made.length].body, made };
    },
    warmup: Number(process.env.BENCH_WARMUP ?? 1000),
    total: Number(process.env.BENCH_REQUESTS ?? 3000),
    rounds: Number(process.env.BENCH_ROUNDS ?? 5),
    concurrency: Number(process.env.BENCH_CONCURRENCY ?? 32),
  });
  const report = {
    bench: 'transfers',
    deposit_creation_rps: Math.round(r.rate.app),
    bare_insert_rps: Math.round(r.rate.bare),
    ratio: Number((r.rate.app / r.rate.bare).toFixed(3)),
    target: 0.4,
    same_work_rps: Math.round(r.rate.same),
    same_work_ratio: Number((r.rate.app / r.rate.same).toFixed(3)),
    same_work_target: 0.6,
    deposit_p99_ms: Number(r.p99ms.app.toFixed(1)),
    bare_p99_ms: Number(r.p99ms.bare.toFixed(1)),
    same_work_p99_ms: Number(r.p99ms.same.toFixed(1)),
    app_cpu_us_per_request: r.cpu.app,
    bare_cpu_us_per_request: r.cpu.bare,
    same_work_cpu_us_per_request: r.cpu.same,
    cpu_ratio: Number((r.cpu.bare / r.cpu.app).toFixed(3)),
    app_cpu_us_per_request_by_round: r.roundCpu.app,
    bare_cpu_us_per_request_by_round: r.roundCpu.bare,
    same_work_cpu_us_per_request_by_round: r.roundCpu.same,
    app_db_cpu_us_per_request: r.dbCpu.app,
    bare_db_cpu_us_per_request: r.dbCpu.bare,
    same_work_db_cpu_us_per_request: r.dbCpu.same,
    app_statements_per_request: r.statements.app,
    bare_statements_per_request: r.statements.bare,
    same_work_statements_per_request: r.statements.same,
    same_work_captured_statements: r.captured.statements,
    captured_outside_transaction: r.captured.outside,
    same_work_pairs_captured_again: r.captured.retried,
    accounts: accounts.length,
    concurrency: Number(process.env.BENCH_CONCURRENCY ?? 32),
    samples: r.samples,
    load_average: r.load_average,
  };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${String(err)}\n`);
  process.exit(1);
});
