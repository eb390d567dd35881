import 'reflect-metadata';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { startUnderCallgrind } from 'bench/lib/callgrind';
import { compare, LoadResult, runLoad } from 'bench/lib/load';
import { cpuSeconds, startServer, startService } from 'bench/lib/server-process';
import { insertSyntheticAssets, SYLLABLES } from 'bench/assets/synthetic-assets';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { dataSourceOptions } from 'src/core/database/data-source-options';
import { runMigrations } from 'src/core/database/migrate';
import { ApiKeyEntity } from 'src/core/tenancy/api-key.entity';
import { TenancyService } from 'src/core/tenancy/tenancy.service';
import { TenantEntity } from 'src/core/tenancy/tenant.entity';
import { assetSearchQuery } from 'src/modules/assets/asset-queries';

/**
 * Asset search (description A, default limit 50) on 100,000 synthetic assets plus the shipped ones:
 * the real service (auth, rate limit, validation, ranking SQL, simulated prices for every row) against
 * a bare node:http + pg server running the same SQL. Target: ratio >= 0.5. Also prints the query plans
 * and times, which show the trigram and btree indexes at work.
 */
const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
// BENCH_ASSETS_DB: a database of one's own when several benches share a PostgreSQL server.
const DB = process.env.BENCH_ASSETS_DB ?? 'svc_bench_assets';
const SYNTHETIC = Number(process.env.BENCH_ASSETS ?? 100_000);
/**
 * BENCH_QUERIES=distinct: 900 different brand prefixes of the synthetic names ("kavel", "kamor", ...,
 * about 110 matches each) sent in turn, more than the service keeps, so every search misses its
 * kept results: the cost of a search seen for the first time.
 */
const DISTINCT_QUERIES = SYLLABLES.flatMap((a) => SYLLABLES.map((b) => `${a}${b}`));
const QUERIES = [
  'apple',
  'AAPL',
  'micro',
  'bank',
  'ms',
  'b',
  'tesla',
  'energy',
  'velmor',
  'zenith',
  'BTC',
  'treasury',
  'KQ',
  'holdings inc',
];

async function prepareDatabase(): Promise<{
  url: string;
  authorization: string;
  tenantId: string;
  total: number;
}> {
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  // BENCH_REUSE_DB=1 keeps the catalogue of an earlier run (only pending migrations run): the
  // 100,000 synthetic assets and their search terms take minutes to load on a busy machine.
  const reuse =
    process.env.BENCH_REUSE_DB === '1' &&
    (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [DB])).rowCount === 1;
  if (!reuse) {
    await admin.query(`DROP DATABASE IF EXISTS "${DB}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${DB}"`);
  }
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${DB}`;
  const ds = await new DataSource({
    ...dataSourceOptions(url.toString()),
    entities: [TenantEntity, ApiKeyEntity],
  }).initialize();
  await runMigrations(ds);
  const tenancy = new TenancyService(ds.getRepository(TenantEntity), ds.getRepository(ApiKeyEntity));
  const { tenant, test } = await tenancy.createTenant('Bench partner', [], false);
  await ds.destroy();
  const client = new Client({ connectionString: url.toString() });
  await client.connect();
  if (!reuse) {
    await insertSyntheticAssets(client, SYNTHETIC);
  }
  // A reference table loaded in bulk, then measured as it stands once autovacuum has run: GIN
  // pending lists merged, visibility map and statistics current.
  await client.query('VACUUM ANALYZE "assets"');
  await client.query('VACUUM ANALYZE "asset_search_terms"');
  const [{ n }] = (await client.query('SELECT count(*)::int AS n FROM "assets"')).rows as { n: number }[];
  await client.end();
  const authorization = `Basic ${Buffer.from(`${test.key.public_key}:${test.secret}`).toString('base64')}`;
  return { url: url.toString(), authorization, tenantId: tenant.id, total: n };
}

/** Execution time and the index scans of the search SQL for each query. */
async function plans(
  url: string,
  tenantId: string,
): Promise<Record<string, { ms: number; indexes: string[] }>> {
  const client = new Client({ connectionString: url });
  await client.connect();
  const result: Record<string, { ms: number; indexes: string[] }> = {};
  for (const q of QUERIES) {
    const { text, values } = assetSearchQuery({ q, status: 'active', take: 51, overrideTenant: tenantId });
    await client.query(text, values);
    const plan = (await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${text}`, values)).rows[0][
      'QUERY PLAN'
    ][0];
    const indexes = new Set<string>();
    const walk = (node: { 'Index Name'?: string; Plans?: unknown[] }) => {
      if (node['Index Name']) {
        indexes.add(node['Index Name']);
      }
      (node.Plans ?? []).forEach((child) => walk(child as typeof node));
    };
    walk(plan.Plan);
    result[q] = { ms: Number(plan['Execution Time'].toFixed(2)), indexes: [...indexes].sort() };
  }
  await client.end();
  return result;
}

const APP_ENV = {
  MIGRATE_ON_START: 'false',
  WORKER_IN_PROCESS: 'false',
  // The bench measures the search, not the limiter refusing: a budget far above the load.
  RATE_LIMIT_BURST: '10000000',
  RATE_LIMIT_PER_SECOND: '10000000',
  LOG_LEVEL: 'info',
};

/**
 * `run.ts callgrind`: instructions per search of each server under valgrind (BENCH_BUILD_DIR, see
 * bench/lib/callgrind.ts), after a warm-up, over BENCH_CALLGRIND_REQUESTS searches of the query mix:
 * a figure the machine's load does not move. The main thread runs every request's JavaScript; the
 * other threads (JIT, GC helpers) vary with timing under valgrind.
 */
async function instructionCounts(): Promise<void> {
  const total = Number(process.env.BENCH_CALLGRIND_REQUESTS ?? 400);
  const { url, authorization, tenantId } = await prepareDatabase();
  const paths = QUERIES.map((q) => `/v1/assets/search?q=${encodeURIComponent(q)}`);
  const counts: Record<string, { main: number; all: number }> = {};
  for (const name of ['app', 'bare'] as const) {
    const server = await startUnderCallgrind(
      'bench/assets/servers.ts',
      [name],
      name === 'app' ? { ...APP_ENV, DATABASE_URL: url } : { DATABASE_URL: url, BENCH_TENANT: tenantId },
    );
    const headers: Record<string, string> = name === 'app' ? { authorization } : {};
    try {
      await runLoad({ port: server.port, path: paths, headers, total: 700, concurrency: 4 });
      server.zero();
      const r = await runLoad({ port: server.port, path: paths, headers, total, concurrency: 4 });
      if (r.statuses[200] !== total) {
        throw new Error(`${name} did not answer 200: ${JSON.stringify(r.statuses)}`);
      }
      const { main, all } = server.instructions();
      counts[name] = { main: main / total, all: all / total };
    } finally {
      await server.stop();
    }
  }
  process.stdout.write(
    `${JSON.stringify(
      {
        bench: 'assets (callgrind)',
        requests: total,
        app_main_thread_instructions_per_search: Math.round(counts.app.main),
        bare_main_thread_instructions_per_search: Math.round(counts.bare.main),
        app_all_threads_instructions_per_search: Math.round(counts.app.all),
        bare_all_threads_instructions_per_search: Math.round(counts.bare.all),
      },
      null,
      2,
    )}\n`,
  );
}

async function main(): Promise<void> {
  if (process.argv[2] === 'callgrind') {
    return instructionCounts();
  }
  const total = Number(process.env.BENCH_REQUESTS ?? 2000);
  const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 20);
  const { url, authorization, tenantId, total: assets } = await prepareDatabase();
  const app = await startService('bench/assets/servers.ts', ['app'], { ...APP_ENV, DATABASE_URL: url });
  const bare = await startServer('bench/assets/servers.ts', ['bare'], {
    DATABASE_URL: url,
    BENCH_TENANT: tenantId,
  });
  try {
    const distinct = process.env.BENCH_QUERIES === 'distinct';
    const paths = (distinct ? DISTINCT_QUERIES : QUERIES).map(
      (q) => `/v1/assets/search?q=${encodeURIComponent(q)}`,
    );
    const check = await runLoad({
      port: app.port,
      path: paths.slice(0, QUERIES.length),
      headers: { authorization },
      total: QUERIES.length,
      concurrency: 1,
    });
    if (check.statuses[200] !== QUERIES.length) {
      throw new Error(`asset search did not answer 200: ${JSON.stringify(check.statuses)}`);
    }
    // Warm both up (JIT, caches, connection pools): BENCH_WARMUP requests each, enough for the
    // service's and the load generator's hot paths to be optimised before the first measured round
    // (with 500 the first round ran at half the rate of the others).
    const warmup = Number(process.env.BENCH_WARMUP ?? 2000);
    await runLoad({ port: app.port, path: paths, headers: { authorization }, total: warmup, concurrency });
    await runLoad({ port: bare.port, path: paths, total: warmup, concurrency });
    const cpu = { app: 0, bare: 0 };
    const latency: Record<'app' | 'bare', LoadResult[]> = { app: [], bare: [] };
    const appRounds: Array<{
      started: string;
      p50_ms: number;
      p99_ms: number;
      loader_loop_max_ms: number;
      loader_cpu_us_per_request: number;
    }> = [];
    const measured = async (name: 'app' | 'bare') => {
      const server = name === 'app' ? app : bare;
      const before = cpuSeconds(server.child.pid!);
      const started = new Date().toISOString().slice(11, 19);
      // The load generator shares the machine: its own stalls and CPU are part of every latency.
      const loaderDelay = monitorEventLoopDelay({ resolution: 5 });
      loaderDelay.enable();
      const loaderCpu = process.cpuUsage();
      const r = await runLoad({
        port: server.port,
        path: paths,
        headers: name === 'app' ? { authorization } : {},
        total,
        concurrency,
      });
      cpu[name] += cpuSeconds(server.child.pid!) - before;
      latency[name].push(r);
      loaderDelay.disable();
      if (name === 'app') {
        // When each round ran, to read beside the service's BENCH_LOOP_STATS lines.
        const used = process.cpuUsage(loaderCpu);
        appRounds.push({
          started,
          p50_ms: Number(r.p50ms.toFixed(1)),
          p99_ms: Number(r.p99ms.toFixed(1)),
          loader_loop_max_ms: Number((loaderDelay.max / 1e6).toFixed(1)),
          loader_cpu_us_per_request: Math.round((used.user + used.system) / total),
        });
      }
      return r;
    };
    const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
    const loadBefore = loadavg();
    const result = await compare(
      rounds,
      () => measured('app'),
      () => measured('bare'),
    );
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    process.stdout.write(
      `${JSON.stringify(
        {
          bench: 'assets',
          queries: distinct ? `${DISTINCT_QUERIES.length} distinct` : QUERIES.length,
          assets,
          requests_per_round: total,
          concurrency,
          app_search_rps: Math.round(result.a),
          bare_sql_rps: Math.round(result.b),
          ratio: Number(result.ratio.toFixed(3)),
          target: 0.5,
          app_p50_ms: Number(median(latency.app.map((r) => r.p50ms)).toFixed(2)),
          app_p99_ms: Number(median(latency.app.map((r) => r.p99ms)).toFixed(2)),
          bare_p50_ms: Number(median(latency.bare.map((r) => r.p50ms)).toFixed(2)),
          bare_p99_ms: Number(median(latency.bare.map((r) => r.p99ms)).toFixed(2)),
          app_cpu_us_per_request: Math.round((cpu.app / (rounds * total)) * 1e6),
          bare_cpu_us_per_request: Math.round((cpu.bare / (rounds * total)) * 1e6),
          // One-minute load average of the machine before and after the measured rounds.
          load_average: [loadBefore[0], loadavg()[0]].map((l) => Number(l.toFixed(2))),
          app_rounds: appRounds,
          samples: result.samples.map(([a, b]) => [Math.round(a), Math.round(b)]),
          sql: await plans(url, tenantId),
        },
        null,
        2,
      )}\n`,
    );
  } finally {
    await app.stop();
    await bare.stop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${String(err)}\n`);
  process.exit(1);
});
