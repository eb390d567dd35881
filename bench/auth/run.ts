import 'reflect-metadata';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from 'src/core/database/data-source-options';
import { runMigrations } from 'src/core/database/migrate';
import { ApiKeyEntity } from 'src/core/tenancy/api-key.entity';
import { TenancyService } from 'src/core/tenancy/tenancy.service';
import { TenantEntity } from 'src/core/tenancy/tenant.entity';
import { runLoad } from 'bench/lib/load';
import { cpuSeconds, startServer, startService } from 'bench/lib/server-process';
import { startUnderCallgrind } from 'bench/lib/callgrind';

/**
 * Authenticated trivial route (Basic auth, rate limit, access guard, request id, JSON logs)
 * against a bare NestJS route with the same body. Target: ratio ≥ 0.8.
 */
const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB = process.env.BENCH_AUTH_DB ?? 'svc_bench_auth';

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
  const tenancy = new TenancyService(ds.getRepository(TenantEntity), ds.getRepository(ApiKeyEntity));
  const { test } = await tenancy.createTenant('Bench partner', [], false);
  await ds.destroy();
  const authorization = `Basic ${Buffer.from(`${test.key.public_key}:${test.secret}`).toString('base64')}`;
  return { url: url.toString(), authorization };
}

const APP_ENV = {
  MIGRATE_ON_START: 'false',
  // The API as deployed beside a worker process (docker-compose): the outbox relay, scheduler,
  // trading engine and queue consumers run in the worker. In the API process their timers would
  // count as request cost, and under valgrind, where a request takes ~50× longer, a timer's share
  // per request is ~50× what it is on a real machine (see idle_main_thread_instructions_per_request).
  WORKER_IN_PROCESS: 'false',
  // The bench measures overhead, not the limiter refusing: a budget far above the load.
  RATE_LIMIT_BURST: '10000000',
  RATE_LIMIT_PER_SECOND: '10000000',
  LOG_LEVEL: 'info',
};
const PATH = '/v1/webhooks/event-types';

/**
 * The servers compared: the service as deployed, the same with the partner request log switched
 * off by configuration (its share of the cost), and the bare NestJS route.
 */
const SIDES = [
  { name: 'app', server: 'app', env: {} },
  { name: 'app-no-request-log', server: 'app', env: { REQUEST_LOG_ENABLED: 'false' } },
  { name: 'bare', server: 'bare', env: {} },
] as const;

/**
 * `run.ts callgrind`: instructions per request of each server under valgrind (BENCH_BUILD_DIR,
 * see bench/lib/callgrind.ts), after a warm-up, over BENCH_CALLGRIND_REQUESTS requests.
 */
async function instructionCounts(): Promise<void> {
  const total = Number(process.env.BENCH_CALLGRIND_REQUESTS ?? 400);
  // BENCH_CALLGRIND_SERVERS=app,bare measures only those (each start under valgrind takes minutes).
  const only = process.env.BENCH_CALLGRIND_SERVERS?.split(',');
  const { url, authorization } = await prepareDatabase();
  const counts: Record<string, { main: number; all: number }> = {};
  const idle: Record<string, number> = {};
  for (const side of SIDES) {
    if (only && !only.includes(side.name)) {
      continue;
    }
    const server = await startUnderCallgrind(
      'bench/auth/servers.ts',
      [side.server],
      side.server === 'app' ? { ...APP_ENV, ...side.env, DATABASE_URL: url } : {},
    );
    const headers: Record<string, string> = side.server === 'app' ? { authorization } : {};
    try {
      await runLoad({ port: server.port, path: PATH, headers, total: 1500, concurrency: 4 });
      server.zero();
      const r = await runLoad({ port: server.port, path: PATH, headers, total, concurrency: 4 });
      if (r.statuses[200] !== total) {
        throw new Error(`${side.name} did not answer 200: ${JSON.stringify(r.statuses)}`);
      }
      const { main, all } = server.instructions();
      counts[side.name] = { main: main / total, all: all / total };
      // The same span again without requests: what timers (rate-limit sync, outbox relay,
      // scheduler, queues) cost on their own. Under valgrind a request takes ~50× longer, so this
      // share is far larger than on a real machine; it is reported, not subtracted.
      server.zero();
      await new Promise((resolve) => setTimeout(resolve, r.seconds * 1000));
      idle[side.name] = server.instructions().main / total;
    } finally {
      await server.stop();
    }
  }
  const perRequest = (name: string, thread: 'main' | 'all') =>
    counts[name] ? Math.round(counts[name][thread]) : undefined;
  const ratio = (a: string, b: string, thread: 'main' | 'all') =>
    counts[a] && counts[b] ? Number((counts[b][thread] / counts[a][thread]).toFixed(3)) : undefined;
  process.stdout.write(
    `${JSON.stringify(
      {
        bench: 'auth (callgrind)',
        requests: total,
        // The main thread runs every request; the other threads (JIT compiler, GC helpers) vary
        // with timing under valgrind, so the main-thread ratio is the steady figure.
        authed_main_thread_instructions_per_request: perRequest('app', 'main'),
        authed_without_request_log_main_thread_instructions_per_request: perRequest(
          'app-no-request-log',
          'main',
        ),
        bare_main_thread_instructions_per_request: perRequest('bare', 'main'),
        main_thread_instruction_ratio: ratio('app', 'bare', 'main'),
        main_thread_instruction_ratio_without_request_log: ratio('app-no-request-log', 'bare', 'main'),
        // What recording requests for GET /v1/request-logs costs: with it on ÷ off (target ≥ 0.95).
        request_log_main_thread_ratio: ratio('app', 'app-no-request-log', 'main'),
        // Main-thread instructions of an idle span as long as the measured one, per measured request.
        idle_main_thread_instructions_per_request: Object.fromEntries(
          Object.entries(idle).map(([name, n]) => [name, Math.round(n)]),
        ),
        authed_all_threads_instructions_per_request: perRequest('app', 'all'),
        bare_all_threads_instructions_per_request: perRequest('bare', 'all'),
        all_threads_instruction_ratio: ratio('app', 'bare', 'all'),
      },
      null,
      2,
    )}\n`,
  );
}

/**
 * `run.ts profile <dir>`: a CPU profile (`node --cpu-prof`, a .cpuprofile file in <dir> for
 * Chrome DevTools) of the authenticated server over BENCH_REQUESTS requests. Start-up is in the
 * profile too; send enough requests that it is a small share.
 */
async function profile(dir: string): Promise<void> {
  const total = Number(process.env.BENCH_REQUESTS ?? 30000);
  const { url, authorization } = await prepareDatabase();
  const app = await startService('bench/auth/servers.ts', ['app'], { ...APP_ENV, DATABASE_URL: url }, [
    '--cpu-prof',
    `--cpu-prof-dir=${dir}`,
    '--cpu-prof-interval=250',
  ]);
  try {
    const r = await runLoad({
      port: app.port,
      path: PATH,
      headers: { authorization },
      concurrency: 4,
      total,
    });
    process.stdout.write(`${JSON.stringify({ profile_dir: dir, requests: total, statuses: r.statuses })}\n`);
  } finally {
    await app.stop();
  }
}

async function main(): Promise<void> {
  if (process.argv[2] === 'callgrind') {
    return instructionCounts();
  }
  if (process.argv[2] === 'profile') {
    return profile(process.argv[3] ?? 'profiles');
  }
  const total = Number(process.env.BENCH_REQUESTS ?? 8000);
  const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 32);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
  const { url, authorization } = await prepareDatabase();
  const servers = await Promise.all(
    SIDES.map(async (side) => ({
      ...side,
      headers: side.server === 'app' ? { authorization } : ({} as Record<string, string>),
      process: await (side.server === 'app' ? startService : startServer)(
        'bench/auth/servers.ts',
        [side.server],
        side.server === 'app' ? { ...APP_ENV, ...side.env, DATABASE_URL: url } : {},
      ),
      rates: [] as number[],
      cpuSeconds: 0,
    })),
  );
  try {
    // Warm each up (JIT, caches, connection pools).
    for (const s of servers) {
      await runLoad({ port: s.process.port, path: PATH, headers: s.headers, total: 5000, concurrency });
    }
    // Rounds alternate the three servers, so machine noise hits each alike.
    for (let round = 0; round < rounds; round++) {
      for (const s of servers) {
        const before = cpuSeconds(s.process.child.pid!);
        const r = await runLoad({ port: s.process.port, path: PATH, headers: s.headers, total, concurrency });
        s.cpuSeconds += cpuSeconds(s.process.child.pid!) - before;
        if (r.statuses[200] !== total) {
          throw new Error(`${s.name} did not answer 200: ${JSON.stringify(r.statuses)}`);
        }
        s.rates.push(r.perSecond);
      }
    }
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
    const [app, withoutLog, bare] = servers;
    const cpuUs = (s: typeof app) => Math.round((s.cpuSeconds / (rounds * total)) * 1e6);
    process.stdout.write(
      `${JSON.stringify(
        {
          bench: 'auth',
          authed_route_rps: Math.round(median(app.rates)),
          authed_without_request_log_rps: Math.round(median(withoutLog.rates)),
          bare_nest_rps: Math.round(median(bare.rates)),
          ratio: Number((median(app.rates) / median(bare.rates)).toFixed(3)),
          target: 0.8,
          // The request log's share: rate with it on ÷ off (target ≥ 0.95).
          request_log_rate_ratio: Number((median(app.rates) / median(withoutLog.rates)).toFixed(3)),
          // Server CPU per request, and the rate ratio it implies on an idle machine.
          authed_cpu_us_per_request: cpuUs(app),
          authed_without_request_log_cpu_us_per_request: cpuUs(withoutLog),
          bare_cpu_us_per_request: cpuUs(bare),
          cpu_ratio: Number((bare.cpuSeconds / app.cpuSeconds).toFixed(3)),
          request_log_cpu_ratio: Number((withoutLog.cpuSeconds / app.cpuSeconds).toFixed(3)),
          samples: app.rates.map((_, i) => servers.map((s) => Math.round(s.rates[i]))),
        },
        null,
        2,
      )}\n`,
    );
  } finally {
    for (const s of servers) {
      await s.process.stop();
    }
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${String(err)}\n`);
  process.exit(1);
});
