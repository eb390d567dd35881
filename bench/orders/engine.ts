import { performance, PerformanceObserver } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { NestFactory } from '@nestjs/core';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { insertSyntheticAssets } from 'bench/assets/synthetic-assets';
import { dataSourceOptions } from 'src/core/database/data-source-options';
import { startCpuProfile } from 'bench/lib/cpu-profile';

/**
 * bench/orders' engine part: BENCH_OPEN_ORDERS resting orders over BENCH_SYMBOLS symbols written
 * with one set-based INSERT … SELECT generate_series, then timed ticks of single symbols in this
 * process (the engine's WorkerModule context). When the catalogue has fewer listed equities and
 * ETFs than BENCH_SYMBOLS, synthetic listed assets (bench/assets/synthetic-assets.ts) fill it up, so
 * every symbol's orders belong to a real asset row. Ticks are drawn from the symbols of the US
 * markets (open at BENCH_ENGINE_AT; a tick of a closed market reads no orders).
 */
const OPEN_ORDERS = Number(process.env.BENCH_OPEN_ORDERS ?? 100_000);
const SYMBOLS = Number(process.env.BENCH_SYMBOLS ?? 1000);
/** The engine's resting orders: `resting` (all out of reach) or `mixed` (limits, stops, trailing stops). */
const ORDER_MIX = process.env.BENCH_ORDER_MIX ?? 'resting';
/** The instant the engine ticks at (the tenant's test clock): a Wednesday 14:00 New York, or `now`. */
const ENGINE_AT = process.env.BENCH_ENGINE_AT ?? '2026-11-18T19:00:00Z';
const US_MARKETS = ['XNAS', 'XNYS', 'ARCA', 'BATS', 'OTC'];

interface Symbol {
  id: string;
  symbol: string;
  class: string;
  market: string;
  currency: string;
  reference_price: string;
}

/** The listed equities and ETFs the orders go to, synthetic ones added when the catalogue is short. */
async function engineSymbols(ds: DataSource, url: string): Promise<Symbol[]> {
  const listed = `SELECT id, symbol, class, market, currency, reference_price::text AS reference_price
    FROM assets WHERE class IN ('equity', 'etf') AND status = 'active' ORDER BY id`;
  let assets: Symbol[] = await ds.query(listed);
  if (assets.length < SYMBOLS) {
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      // 2 % of synthetic assets are inactive.
      // Ids shaped as uuids: the engine finds an asset by id only when its reference looks like one.
      await insertSyntheticAssets(client, Math.ceil((SYMBOLS - assets.length) * 1.03) + 10, {
        uuidShapedIds: true,
      });
    } finally {
      await client.end();
    }
    assets = await ds.query(listed);
  }
  return assets.slice(0, SYMBOLS);
}

/** The resting orders, in one statement; resolves with the seconds it took. */
async function seedOrders(ds: DataSource, tenantId: string, accountIds: string[], symbols: Symbol[]) {
  const started = performance.now();
  // resting: every order a gtc limit buy at 0.01 (no tick ever reaches it). mixed: per ten orders of a
  // symbol, 4 limit buys at half and 3 limit sells at twice the reference price, a stop buy above and a
  // stop sell below it, and a 10 % trailing stop sell, whose water mark every tick at a new price moves.
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
      Math.ceil(OPEN_ORDERS / SYMBOLS),
      ORDER_MIX === 'mixed',
      symbols.map((s) => s.reference_price),
    ],
  );
  await ds.query('ANALYZE orders');
  return (performance.now() - started) / 1000;
}

/** This process's memory after a full collection, in MB: resident set and V8 heap in use. */
function memoryMb(): { rss_mb: number; heap_used_mb: number } {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
  const { rss, heapUsed } = process.memoryUsage();
  return { rss_mb: Math.round(rss / 2 ** 20), heap_used_mb: Math.round(heapUsed / 2 ** 20) };
}

type Tick = (symbol: Symbol) => Promise<number>;

/** Timed ticks of single symbols, with the collector's pauses, for the report. */
async function timedTicks(tick: Tick, symbols: Symbol[]) {
  // Garbage-collector pauses, to tell a slow tick that collected from one that waited on the database.
  const pauses: Array<{ start: number; end: number }> = [];
  const gc = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      pauses.push({ start: entry.startTime, end: entry.startTime + entry.duration });
    }
  });
  gc.observe({ entryTypes: ['gc'] });
  const profiler = process.env.BENCH_ENGINE_PROFILE ? await startCpuProfile() : undefined;
  const samples: Array<{ symbol: string; start: number; ms: number; cpuMs: number; changed: number }> = [];
  const ticks = Number(process.env.BENCH_TICKS ?? 200);
  for (let i = 0; i < ticks; i++) {
    const s = symbols[(i * 7919) % symbols.length];
    const start = performance.now();
    const cpu = process.cpuUsage();
    const changed = await tick(s);
    const used = process.cpuUsage(cpu);
    samples.push({
      symbol: s.symbol,
      start,
      ms: performance.now() - start,
      cpuMs: (used.user + used.system) / 1000,
      changed,
    });
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
    ticks,
    // Ticks that changed orders (each in a transaction) and the orders they changed.
    ticks_changing: samples.filter((x) => x.changed > 0).length,
    orders_changed: samples.reduce((sum, x) => sum + x.changed, 0),
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
        changed: x.changed,
        gc_ms: Number(gcWithin(x).toFixed(1)),
      })),
  };
}

/**
 * The engine part: symbols and test clock, the engine's context, its memory on an empty book, the
 * orders seeded, warm-up and timed ticks, its memory again.
 */
export async function engineTicks(url: string, tenantId: string, accountIds: string[]) {
  const ds = await new DataSource({ ...dataSourceOptions(url), entities: [] }).initialize();
  const symbols = await engineSymbols(ds, url);
  if (ENGINE_AT !== 'now') {
    // The tenant's test clock, so every run ticks the same session phase whatever the time of day.
    await ds.query(
      `INSERT INTO test_clocks (tenant_id, frozen_time, version, updated_at) VALUES ($1, $2, 1, now())
       ON CONFLICT (tenant_id) DO UPDATE SET frozen_time = EXCLUDED.frozen_time, version = test_clocks.version + 1`,
      [tenantId, new Date(ENGINE_AT)],
    );
  }
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
    const tick: Tick = (s) => engine.tick(scope, [s.id]);
    const open = symbols.filter((s) => US_MARKETS.includes(s.market));
    for (const s of open.slice(0, 20)) {
      await tick(s); // warm-up: connections, quote caches of the first minute
    }
    const before = memoryMb();
    const seedSeconds = await seedOrders(ds, tenantId, accountIds, symbols);
    const [{ count, orders_mb }] = await ds.query(
      `SELECT count(*)::int AS count, round(pg_total_relation_size('orders') / 1048576.0) AS orders_mb
         FROM orders WHERE status = 'accepted'`,
    );
    for (const s of open.slice(20, 40)) {
      await tick(s);
    }
    const timed = await timedTicks(tick, open);
    return {
      open_orders: count,
      order_mix: ORDER_MIX,
      ticked_at: ENGINE_AT,
      symbols: symbols.length,
      symbols_ticked_from: open.length,
      orders_per_tick: Math.ceil(OPEN_ORDERS / SYMBOLS),
      seed_seconds: Number(seedSeconds.toFixed(1)),
      orders_table_mb: Number(orders_mb),
      ...timed,
      memory_before_seeding: before,
      memory_after_ticks: memoryMb(),
      target_ms: OPEN_ORDERS >= 1_000_000 ? 50 : 100,
    };
  } finally {
    await context.close();
    await ds.destroy();
  }
}
