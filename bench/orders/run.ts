import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance, PerformanceObserver } from 'node:perf_hooks';
import { NestFactory } from '@nestjs/core';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { compare, LoadResult, runLoad } from 'bench/lib/load';
import { readQueryCount } from 'bench/lib/query-count';
import { cpuSeconds, startServer } from 'bench/lib/server-process';
import { dataSourceOptions } from 'src/core/database/data-source-options';
import { runMigrations } from 'src/core/database/migrate';
import { ApiKeyEntity } from 'src/core/tenancy/api-key.entity';
import { TenancyService } from 'src/core/tenancy/tenancy.service';
import { TenantEntity } from 'src/core/tenancy/tenant.entity';

/**
 * 1. Order placement (POST /v1/investors/{id}/orders with an Idempotency-Key: auth, rate limit,
 *    validation, account and asset reads, the quote, the cash hold in the ledger, the order row,
 *    `order.accepted`, an evaluation, the session-event job and the stored response in one
 *    transaction) against a bare node:http + pg single-insert transaction. Target: ratio >= 0.4.
 * 2. Engine time per price tick with 100,000 open orders across 1,000 symbols (100 per symbol):
 *    one tick locks and evaluates its symbol's open orders only. Target: < 100 ms.
 */
const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB = process.env.BENCH_ORDERS_DB ?? 'svc_bench_orders';
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 32);
const OPEN_ORDERS = Number(process.env.BENCH_OPEN_ORDERS ?? 100_000);
const SYMBOLS = Number(process.env.BENCH_SYMBOLS ?? 1000);
/** The engine's resting orders: `resting` (all out of reach) or `mixed` (limits, stops, trailing stops). */
const ORDER_MIX = process.env.BENCH_ORDER_MIX ?? 'resting';
/** The instant the engine ticks at (the tenant's test clock): a Wednesday 14:00 New York, or `now`. */
const ENGINE_AT = process.env.BENCH_ENGINE_AT ?? '2026-11-18T19:00:00Z';

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

/** ACTIVE investors with settled cash, made through the API. */
async function tradingAccounts(
  port: number,
  authorization: string,
): Promise<Array<{ path: string; accountId: string }>> {
  const call = async (path: string, body?: object) => {
    const res = await fetch(`http://127.0.0.1:${port}${path}`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify(body ?? {}),
    });
    if (res.status >= 300) {
      throw new Error(`${path}: ${res.status} ${await res.text()}`);
    }
    return (await res.json()) as Record<string, string>;
  };
  const accounts: Array<{ path: string; accountId: string }> = [];
  for (let i = 0; i < ACCOUNTS; i++) {
    const investor = await call('/v1/investors', {
      identity: {
        first_name: 'Bench',
        last_name: `Trader ${String.fromCharCode(65 + (i % 26))}`,
        date_of_birth: '1985-01-01',
        country_of_citizenship: 'US',
        country_of_birth: 'US',
        tax_id_type: 'USA_SSN',
        tax_id: '123-45-6789',
        country_of_tax_residence: 'US',
        funding_source: ['employment_income'],
      },
      contact: {
        email_address: `trader${i}@example.com`,
        phone_number: '+14155550123',
        address: {
          street: ['1 Main St'],
          city: 'San Mateo',
          state: 'CA',
          postal_code: '94401',
          country: 'US',
        },
      },
      disclosures: {
        is_control_person: false,
        is_affiliated_exchange_or_finra: false,
        is_politically_exposed: false,
        immediate_family_exposed: false,
      },
    });
    await call(`/v1/test_helpers/investors/${investor.id}/kyc/approve`);
    const bank = await call(`/v1/investors/${investor.id}/funding-sources`, {
      type: 'bank_account',
      account_holder_name: 'Bench Trader',
      account_number: '000123456789',
      routing_number: '110000000',
      currency: 'USD',
      country: 'US',
    });
    const deposit = await call(`/v1/wallet/accounts/${investor.account_id}/funding`, {
      amount: '1000000.00',
      funding_details: {
        funding_type: 'fiat',
        fiat_currency: 'USD',
        bank_account_id: bank.id,
        method: 'ach',
      },
    });
    await call(`/v1/test_helpers/wallet/transactions/${deposit.transaction_id}/settle`);
    accounts.push({ path: `/v1/investors/${investor.id}/orders`, accountId: investor.account_id });
  }
  return accounts;
}

/** A resting gtc limit buy: the whole placement path without a fill (the common case under load). */
const ORDER_BODY = JSON.stringify({
  symbol: 'AAPL',
  side: 'buy',
  type: 'limit',
  time_in_force: 'gtc',
  quantity: '1',
  limit_price: '1.00',
});

async function placement(url: string, authorization: string) {
  const total = Number(process.env.BENCH_REQUESTS ?? 2000);
  const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 32);
  const countFile = (name: string) => join(tmpdir(), `bench-orders-${process.pid}-${name}.count`);
  const app = await startServer('bench/orders/servers.ts', ['app'], {
    BENCH_QUERY_COUNT_FILE: countFile('app'),
    DATABASE_URL: url,
    MIGRATE_ON_START: 'false',
    WORKER_IN_PROCESS: 'false',
    RATE_LIMIT_BURST: '10000000',
    RATE_LIMIT_PER_SECOND: '10000000',
    LOG_LEVEL: 'info',
    ...(process.env.BENCH_APP_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_APP_NODE_OPTIONS } : {}),
  });
  const bare = await startServer('bench/orders/servers.ts', ['bare'], {
    DATABASE_URL: url,
    BENCH_QUERY_COUNT_FILE: countFile('bare'),
  });
  try {
    const accounts = await tradingAccounts(app.port, authorization);
    const cpu = { app: 0, bare: 0 };
    const p99 = { app: [] as number[], bare: [] as number[] };
    const statements = { app: 0, bare: 0 };
    const load = async (server: typeof app, requests: number): Promise<LoadResult> => {
      const run = randomBytes(6).toString('hex');
      const which = server === app ? 'app' : 'bare';
      const sentBefore = await readQueryCount(countFile(which));
      const before = cpuSeconds(server.child.pid!);
      const result = await runLoad({
        port: server.port,
        path: accounts.map((a) => a.path),
        method: 'POST',
        headers: (i) => ({ authorization, 'idempotency-key': `bench-${run}-${i}` }),
        body: () => ORDER_BODY,
        total: requests,
        concurrency,
      });
      if (result.statuses[201] !== requests) {
        throw new Error(`not every order was placed: ${JSON.stringify(result.statuses)}`);
      }
      cpu[which] += cpuSeconds(server.child.pid!) - before;
      statements[which] += (await readQueryCount(countFile(which))) - sentBefore;
      p99[which].push(result.p99ms);
      return result;
    };
    await load(app, 500);
    await load(bare, 500);
    cpu.app = 0;
    cpu.bare = 0;
    p99.app = [];
    p99.bare = [];
    statements.app = 0;
    statements.bare = 0;
    const result = await compare(
      Number(process.env.BENCH_ROUNDS ?? 5),
      () => load(app, total),
      () => load(bare, total),
    );
    const requests = result.samples.length * total;
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
    return {
      accounts,
      report: {
        placement_rps: Math.round(result.a),
        bare_insert_rps: Math.round(result.b),
        ratio: Number(result.ratio.toFixed(3)),
        target: 0.4,
        placement_p99_ms: Number(median(p99.app).toFixed(1)),
        bare_p99_ms: Number(median(p99.bare).toFixed(1)),
        p99_ratio: Number((median(p99.bare) / median(p99.app)).toFixed(3)),
        app_cpu_us_per_request: Math.round((cpu.app / requests) * 1e6),
        bare_cpu_us_per_request: Math.round((cpu.bare / requests) * 1e6),
        app_statements_per_request: Number((statements.app / requests).toFixed(2)),
        bare_statements_per_request: Number((statements.bare / requests).toFixed(2)),
        concurrency,
        samples: result.samples.map(([a, b]) => [Math.round(a), Math.round(b)]),
      },
    };
  } finally {
    await app.stop();
    await bare.stop();
    rmSync(countFile('app'), { force: true });
    rmSync(countFile('bare'), { force: true });
  }
}

/** BENCH_ENGINE_PROFILE=<file>: a CPU profile of the timed ticks; resolves with the function that writes it. */
async function startProfile(): Promise<(file: string) => Promise<void>> {
  const { Session } = await import('node:inspector');
  const { writeFileSync } = await import('node:fs');
  const session = new Session();
  session.connect();
  const post = (method: string) =>
    new Promise<unknown>((resolve, reject) =>
      session.post(method, (err, result) => (err ? reject(err) : resolve(result))),
    );
  await post('Profiler.enable');
  await post('Profiler.start');
  return async (file) => {
    const { profile } = (await post('Profiler.stop')) as { profile: object };
    writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
  };
}

/** 100k resting orders written directly (100 per symbol), then timed ticks of single symbols in-process. */
async function engineTicks(url: string, tenantId: string, accountIds: string[]) {
  const ds = await new DataSource({ ...dataSourceOptions(url), entities: [] }).initialize();
  const assets: Array<{
    id: string;
    symbol: string;
    class: string;
    market: string;
    currency: string;
    reference_price: string;
  }> = await ds.query(
    `SELECT id, symbol, class, market, currency, reference_price::text AS reference_price
       FROM assets WHERE class IN ('equity', 'etf') ORDER BY id`,
  );
  const symbols = Array.from({ length: SYMBOLS }, (_, i) =>
    i < assets.length
      ? assets[i]
      : {
          id: `bench-asset-${i}`,
          symbol: `BENCH${i}`,
          class: 'equity',
          market: 'XNAS',
          currency: 'USD',
          reference_price: '100',
        },
  );
  const perSymbol = Math.ceil(OPEN_ORDERS / SYMBOLS);
  // resting: every order a gtc limit buy at 0.01 (no tick ever reaches it). mixed: per ten orders of a
  // symbol, 4 limit buys at half and 3 limit sells at twice the reference price, a stop buy above and a
  // stop sell below it, and a 10 % trailing stop sell, whose water mark every tick at a new price moves.
  const mixed = ORDER_MIX === 'mixed';
  await ds.query(
    `INSERT INTO orders (id, tenant_id, livemode, investor_id, account_id, asset_id, symbol, asset_class, market, currency,
       side, type, time_in_force, quantity, limit_price, stop_price, trail_percent, client_order_id, status,
       commission_type, created_at, updated_at)
     SELECT 'ord_bench_' || s.n || '_' || k, $1, false, 'inv_bench', ($2::uuid[])[1 + (k % array_length($2::uuid[], 1))],
       s.id, s.symbol, s.class, s.market, s.currency,
       CASE WHEN NOT $9 OR k % 10 IN (0, 1, 2, 3, 7) THEN 'buy' ELSE 'sell' END,
       CASE WHEN NOT $9 OR k % 10 < 7 THEN 'limit' WHEN k % 10 < 9 THEN 'stop' ELSE 'trailing_stop' END,
       'gtc', 1,
       CASE WHEN NOT $9 THEN 0.01 WHEN k % 10 < 4 THEN round(s.ref * 0.5, 2) WHEN k % 10 < 7 THEN round(s.ref * 2, 2) END,
       CASE WHEN $9 AND k % 10 = 7 THEN round(s.ref * 2, 2) WHEN $9 AND k % 10 = 8 THEN round(s.ref * 0.5, 2) END,
       CASE WHEN $9 AND k % 10 = 9 THEN 10 END,
       'bench-' || s.n || '-' || k, 'accepted', 'notional', now(), now()
     FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $10::numeric[])
       WITH ORDINALITY AS s(id, symbol, class, market, currency, ref, n)
     CROSS JOIN generate_series(1, $8) AS k`,
    [
      tenantId,
      accountIds,
      symbols.map((s) => s.id),
      symbols.map((s) => s.symbol),
      symbols.map((s) => s.class),
      symbols.map((s) => s.market),
      symbols.map((s) => s.currency),
      perSymbol,
      mixed,
      symbols.map((s) => s.reference_price),
    ],
  );
  if (ENGINE_AT !== 'now') {
    // The tenant's test clock, so every run ticks the same session phase whatever the time of day.
    await ds.query(
      `INSERT INTO test_clocks (tenant_id, frozen_time, version, updated_at) VALUES ($1, $2, 1, now())
       ON CONFLICT (tenant_id) DO UPDATE SET frozen_time = EXCLUDED.frozen_time, version = test_clocks.version + 1`,
      [tenantId, new Date(ENGINE_AT)],
    );
  }
  await ds.query('ANALYZE orders');
  const [{ open }] = await ds.query(`SELECT count(*)::int AS open FROM orders WHERE status = 'accepted'`);
  await ds.destroy();

  process.env.DATABASE_URL = url;
  process.env.MIGRATE_ON_START = 'false';
  process.env.ENGINE_SWEEP_INTERVAL_MS = '0';
  process.env.LOG_LEVEL = 'silent';
  const { WorkerModule } = await import('src/worker.module');
  const { OrderEngine } = await import('src/modules/trading/engine/order-engine.service');
  const context = await NestFactory.createApplicationContext(WorkerModule, { logger: false });
  try {
    const engine = context.get(OrderEngine);
    const scope = { tenantId, livemode: false };
    const real = symbols.slice(0, Math.min(assets.length, SYMBOLS));
    for (const s of real.slice(0, 20)) {
      await engine.tick(scope, [s.id]); // warm-up: connections, quote caches of the first minute
    }
    // Garbage-collector pauses, to tell a slow tick that collected from one that waited on the database.
    const pauses: Array<{ start: number; end: number }> = [];
    const gc = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        pauses.push({ start: entry.startTime, end: entry.startTime + entry.duration });
      }
    });
    gc.observe({ entryTypes: ['gc'] });
    const profiler = process.env.BENCH_ENGINE_PROFILE ? await startProfile() : undefined;
    const samples: Array<{ symbol: string; start: number; ms: number; cpuMs: number }> = [];
    const ticks = Number(process.env.BENCH_TICKS ?? 200);
    for (let i = 0; i < ticks; i++) {
      const s = real[(i * 7919) % real.length];
      const start = performance.now();
      const cpu = process.cpuUsage();
      await engine.tick(scope, [s.id]);
      const used = process.cpuUsage(cpu);
      const end = performance.now();
      samples.push({ symbol: s.symbol, start, ms: end - start, cpuMs: (used.user + used.system) / 1000 });
    }
    await new Promise((resolve) => setImmediate(resolve));
    gc.disconnect();
    await profiler?.(process.env.BENCH_ENGINE_PROFILE as string);
    const gcWithin = (x: { start: number; ms: number }) =>
      pauses.reduce(
        (sum, p) => sum + Math.max(0, Math.min(p.end, x.start + x.ms) - Math.max(p.start, x.start)),
        0,
      );
    const times = samples.map((x) => x.ms).sort((a, b) => a - b);
    const cpuTimes = samples.map((x) => x.cpuMs).sort((a, b) => a - b);
    const at = (xs: number[], q: number) =>
      Number(xs[Math.min(xs.length - 1, Math.floor(xs.length * q))].toFixed(2));
    return {
      open_orders: open,
      order_mix: ORDER_MIX,
      ticked_at: ENGINE_AT,
      symbols: SYMBOLS,
      orders_per_tick: perSymbol,
      ticks,
      tick_p50_ms: at(times, 0.5),
      tick_p99_ms: at(times, 0.99),
      tick_max_ms: at(times, 1),
      tick_cpu_p50_ms: at(cpuTimes, 0.5),
      tick_cpu_p99_ms: at(cpuTimes, 0.99),
      tick_cpu_max_ms: at(cpuTimes, 1),
      gc_pauses: pauses.length,
      gc_ms: Number(pauses.reduce((sum, p) => sum + p.end - p.start, 0).toFixed(1)),
      slowest: [...samples]
        .sort((a, b) => b.ms - a.ms)
        .slice(0, 5)
        .map((x) => ({
          symbol: x.symbol,
          ms: Number(x.ms.toFixed(1)),
          cpu_ms: Number(x.cpuMs.toFixed(1)),
          gc_ms: Number(gcWithin(x).toFixed(1)),
        })),
      target_ms: 100,
    };
  } finally {
    await context.close();
  }
}

/** Accounts for the engine part alone (BENCH_PART=engine): made through a briefly started service. */
async function accountsOnly(url: string, authorization: string): Promise<string[]> {
  const app = await startServer('bench/orders/servers.ts', ['app'], {
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

/** BENCH_PART=placement or BENCH_PART=engine runs one part only; both by default. */
async function main(): Promise<void> {
  const part = process.env.BENCH_PART ?? 'all';
  if (!['all', 'placement', 'engine'].includes(part)) {
    throw new Error(`BENCH_PART must be placement, engine or all, not '${part}'`);
  }
  const { url, authorization, tenantId } = await prepareDatabase();
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
