import 'reflect-metadata';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { fundedInvestors, RESTING_BUY } from 'bench/lib/funded-investors';
import { placementInstructions } from 'bench/orders/callgrind';
import { engineTicks } from 'bench/orders/engine';
import { startService } from 'bench/lib/server-process';
import { runThreeWay } from 'bench/lib/three-way';
import { dataSourceOptions } from 'src/core/database/data-source-options';
import { runMigrations } from 'src/core/database/migrate';
import { ApiKeyEntity } from 'src/core/tenancy/api-key.entity';
import { TenancyService } from 'src/core/tenancy/tenancy.service';
import { TenantEntity } from 'src/core/tenancy/tenant.entity';

/**
 * 1. Order placement (POST /v1/investors/{id}/orders with an Idempotency-Key: auth, rate limit,
 *    validation, account and asset reads, the quote, the cash hold in the ledger, the order row,
 *    `order.accepted`, an evaluation, the session-event job and the stored response in one
 *    transaction) against a bare node:http + pg single-insert transaction (ratio reported) and
 *    the same-work server replaying the placement's own statements (bench/lib/three-way.ts).
 *    Targets: same_work_ratio >= 0.6; p99 at 32 connections <= 2 x the same-work server's.
 * 2. Engine time per price tick with BENCH_OPEN_ORDERS open orders across BENCH_SYMBOLS symbols
 *    (default 100,000 over 1,000; bench/orders/engine.ts): one tick locks and evaluates its
 *    symbol's open orders only. Target: p99 < 50 ms at 1,000,000 over 10,000.
 */
const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB = process.env.BENCH_ORDERS_DB ?? 'svc_bench_orders';
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 32);

async function prepareDatabase(): Promise<{ url: string; authorization: string; tenantId: string }> {
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
  await ds.query('CREATE TABLE bench_orders (id uuid PRIMARY KEY, path text NOT NULL, body jsonb NOT NULL)');
  const tenancy = new TenancyService(ds.getRepository(TenantEntity), ds.getRepository(ApiKeyEntity));
  const { tenant, test } = await tenancy.createTenant('Bench partner', [], false);
  await ds.destroy();
  return {
    url: url.toString(),
    tenantId: tenant.id,
    authorization: `Basic ${Buffer.from(`${test.key.public_key}:${test.secret}`).toString('base64')}`,
  };
}

/** ACTIVE investors with 1,000,000 USD settled, made through the API; each one's order route. */
async function tradingAccounts(
  port: number,
  authorization: string,
): Promise<Array<{ path: string; accountId: string }>> {
  return (await fundedInvestors(port, authorization, ACCOUNTS)).map((i) => ({
    path: `/v1/investors/${i.investorId}/orders`,
    accountId: i.accountId,
  }));
}

/** The service as the placement bench runs it: no in-process worker, a rate limit it never meets. */
const APP_ENV = {
  MIGRATE_ON_START: 'false',
  WORKER_IN_PROCESS: 'false',
  RATE_LIMIT_BURST: '10000000',
  RATE_LIMIT_PER_SECOND: '10000000',
};

/** A resting gtc limit buy: the whole placement path without a fill (the common case under load). */
const ORDER_BODY = RESTING_BUY;

async function placement(url: string, authorization: string) {
  const { made: accounts, report: r } = await runThreeWay({
    bench: 'orders',
    url,
    authorization,
    appEnv: {
      ...APP_ENV,
      LOG_LEVEL: 'info',
      ...(process.env.BENCH_APP_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_APP_NODE_OPTIONS } : {}),
    },
    setUp: async (port) => {
      const made = await tradingAccounts(port, authorization);
      return { paths: made.map((a) => a.path), body: () => ORDER_BODY, made };
    },
    warmup: Number(process.env.BENCH_WARMUP ?? 500),
    total: Number(process.env.BENCH_REQUESTS ?? 2000),
    rounds: Number(process.env.BENCH_ROUNDS ?? 5),
    concurrency: Number(process.env.BENCH_CONCURRENCY ?? 32),
  });
  const ms = (x: number) => Number(x.toFixed(1));
  return {
    accounts,
    report: {
      placement_rps: Math.round(r.rate.app),
      bare_insert_rps: Math.round(r.rate.bare),
      ratio: Number((r.rate.app / r.rate.bare).toFixed(3)),
      target: 0.4,
      same_work_rps: Math.round(r.rate.same),
      same_work_ratio: Number((r.rate.app / r.rate.same).toFixed(3)),
      same_work_target: 0.6,
      placement_p99_ms: ms(r.p99ms.app),
      bare_p99_ms: ms(r.p99ms.bare),
      same_work_p99_ms: ms(r.p99ms.same),
      p99_ratio: Number((r.p99ms.bare / r.p99ms.app).toFixed(3)),
      p99_over_same_work: Number((r.p99ms.app / r.p99ms.same).toFixed(2)),
      p99_target: '<= 2 x same_work_p99_ms',
      app_cpu_us_per_request: r.cpu.app,
      bare_cpu_us_per_request: r.cpu.bare,
      same_work_cpu_us_per_request: r.cpu.same,
      app_db_cpu_us_per_request: r.dbCpu.app,
      bare_db_cpu_us_per_request: r.dbCpu.bare,
      same_work_db_cpu_us_per_request: r.dbCpu.same,
      app_statements_per_request: r.statements.app,
      bare_statements_per_request: r.statements.bare,
      same_work_statements_per_request: r.statements.same,
      same_work_captured_statements: r.captured.statements,
      captured_outside_transaction: r.captured.outside,
      same_work_pairs_captured_again: r.captured.retried,
      concurrency: Number(process.env.BENCH_CONCURRENCY ?? 32),
      samples: r.samples,
      load_average: r.load_average,
    },
  };
}

/** Accounts for the engine part alone (BENCH_PART=engine): made through a briefly started service. */
async function accountsOnly(url: string, authorization: string): Promise<string[]> {
  const app = await startService('bench/orders/servers.ts', ['app'], {
    DATABASE_URL: url,
    MIGRATE_ON_START: 'false',
    WORKER_IN_PROCESS: 'false',
  });
  try {
    return (await tradingAccounts(app.port, authorization)).map((a) => a.accountId);
  } finally {
    await app.stop();
  }
}

/**
 * BENCH_PART=placement or BENCH_PART=engine runs one part only; both by default.
 * BENCH_PART=callgrind: the placement's instructions under valgrind (bench/orders/callgrind.ts).
 */
async function main(): Promise<void> {
  const part = process.env.BENCH_PART ?? 'all';
  if (!['all', 'placement', 'engine', 'callgrind'].includes(part)) {
    throw new Error(`BENCH_PART must be placement, engine, callgrind or all, not '${part}'`);
  }
  const { url, authorization, tenantId } = await prepareDatabase();
  if (part === 'callgrind') {
    const counts = await placementInstructions(url, authorization, APP_ENV);
    process.stdout.write(`${JSON.stringify({ bench: 'orders (callgrind)', placement: counts }, null, 2)}\n`);
    process.exit(0);
  }
  let placed: Awaited<ReturnType<typeof placement>> | undefined;
  if (part !== 'engine') {
    placed = await placement(url, authorization);
  }
  const engine =
    part === 'placement'
      ? undefined
      : await engineTicks(
          url,
          tenantId,
          placed ? placed.accounts.map((a) => a.accountId) : await accountsOnly(url, authorization),
        );
  process.stdout.write(
    `${JSON.stringify({ bench: 'orders', placement: placed?.report, engine }, null, 2)}\n`,
  );
  process.exit(0);
}

main().catch((err: unknown) => {
  process.stderr.write(`${String(err)}\n`);
  process.exit(1);
});
