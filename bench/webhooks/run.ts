import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import Redis from 'ioredis';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { Webhook } from 'standardwebhooks';
import { startServer, startService } from 'bench/lib/server-process';
import { CostMeter, countStatements, MeteredWorker } from 'bench/webhooks/costs';
import { perfRecorded, profiled } from 'bench/webhooks/profiling';
import { BareFigures, BenchTenant, Figures, Scenarios } from 'bench/webhooks/scenario';

/**
 * Webhook delivery from the commit of the emitting transaction to the receiver's 2xx. The service
 * runs as deployed (docker-compose): the API in this process, where the emitters commit the
 * events, and the outbox relay and delivery consumer in a worker process (src/worker.ts's module,
 * `WORKER_IN_PROCESS=false` for the API), on a fresh database; `BENCH_WEBHOOKS_WORKER=in-process`
 * runs them in this process instead, as the sandbox does. The costs count both processes.
 * The receiver runs in its own process on 127.0.0.1, and so does the baseline: a bare sender that
 * signs the same Standard Webhooks messages and POSTs them to the same receiver with keep-alive,
 * at the service's concurrency (WEBHOOK_CONCURRENCY), with no queue and no database.
 *
 * Scenarios, bounded in count: one endpoint with BENCH_EVENTS (2000) events from 8 emitters as
 * fast as they commit; one endpoint with BENCH_PACED_EVENTS (2000) events at a steady 400/s
 * (commit → 2xx p50 and p99: the latency target); 50 endpoints with BENCH_FANOUT_EVENTS (400, so
 * 20,000 deliveries). The unpaced scenarios run BENCH_ROUNDS (3) rounds, each the service then
 * the bare sender with the same deliveries, and report medians and their ratio. With
 * BENCH_CPU_PROFILE=<file>, the first 50-endpoint round of this process is profiled (.cpuprofile);
 * with BENCH_PERF_DATA=<file>, the delivering process's is recorded by `perf record` (node
 * --perf-basic-prof names its frames: BENCH_WORKER_NODE_ARGS for the worker).
 */
const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB = process.env.BENCH_WEBHOOKS_DB ?? 'svc_bench_webhooks';
const APPLICATION_NAME = 'bench_webhooks_app';

async function adminQuery(sql: string): Promise<void> {
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(sql);
  await admin.end();
}

async function freshDatabase(): Promise<string> {
  await adminQuery(`DROP DATABASE IF EXISTS "${DB}" WITH (FORCE)`);
  await adminQuery(`CREATE DATABASE "${DB}"`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${DB}`;
  url.searchParams.set('application_name', APPLICATION_NAME);
  return url.toString();
}

/** The bench's queue prefix is its own: its kept jobs are removed from Redis afterwards. */
async function dropQueueKeys(prefix: string): Promise<void> {
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/0');
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) {
      await redis.unlink(...keys);
    }
  } while (cursor !== '0');
  redis.disconnect();
}

/** Samples of what the receiver got verify with the standardwebhooks library and the endpoint's secret. */
async function verifySamples(receiverUrl: string, tenants: BenchTenant[]): Promise<number> {
  const secrets = new Map(tenants.flatMap((t) => t.endpoints.map((e) => [e.path, e.secret] as const)));
  const samples = (await (await fetch(`${receiverUrl}/samples`)).json()) as Array<{
    path: string;
    headers: Record<string, string>;
    body: string;
  }>;
  for (const sample of samples) {
    new Webhook(secrets.get(sample.path)!).verify(sample.body, sample.headers);
  }
  return samples.length;
}

/**
 * The worker process as src/worker.ts runs it (bench/scale/servers.ts), counting its statements;
 * BENCH_WORKER_NODE_ARGS are given to its node (`--perf-basic-prof` to profile it with perf).
 */
async function startWorker(): Promise<{ metered: MeteredWorker; stop(): Promise<void> }> {
  const queryCountFile = `/tmp/bench-webhooks-worker-${process.pid}.count`;
  const nodeArgs = (process.env.BENCH_WORKER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const worker = await startService(
    'bench/scale/servers.ts',
    ['worker'],
    { BENCH_QUERY_COUNT_FILE: queryCountFile },
    nodeArgs,
  );
  process.stderr.write(`worker process ${worker.child.pid}\n`);
  return { metered: { pid: worker.child.pid!, queryCountFile }, stop: () => worker.stop() };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

interface FanOut {
  service: Figures;
  bare: BareFigures;
  bare_sender_deliveries_per_second: number;
  ratio_to_bare_sender: number;
  rounds: Array<{ service: number; bare_sender: number; ratio: number }>;
}

/** Alternating rounds of the service and the bare sender over the same deliveries; medians. */
async function fanOut(
  scenarios: Scenarios,
  bench: BenchTenant,
  events: number,
  rounds: number,
  concurrency: number,
  /** The process that delivers (perf records it): the worker's, or this one. */
  deliveringPid: number,
): Promise<FanOut> {
  const services: Figures[] = [];
  const bares: BareFigures[] = [];
  for (let r = 0; r < rounds; r++) {
    const profile = r === 0 && bench.endpoints.length > 1 ? process.env.BENCH_CPU_PROFILE : undefined;
    const perf = r === 0 && bench.endpoints.length > 1 ? process.env.BENCH_PERF_DATA : undefined;
    services.push(
      await perfRecorded(perf, deliveringPid, () =>
        profiled(profile, () => scenarios.service(bench, events)),
      ),
    );
    bares.push(await scenarios.bare(bench, events, concurrency));
  }
  const pick = <T extends { deliveries_per_second: number }>(xs: T[]) =>
    xs.find((x) => x.deliveries_per_second === median(xs.map((y) => y.deliveries_per_second)))!;
  const service = pick(services);
  const bare = pick(bares);
  return {
    service,
    bare,
    bare_sender_deliveries_per_second: bare.deliveries_per_second,
    ratio_to_bare_sender: Number((service.deliveries_per_second / bare.deliveries_per_second).toFixed(3)),
    rounds: services.map((s, i) => ({
      service: s.deliveries_per_second,
      bare_sender: bares[i].deliveries_per_second,
      ratio: Number((s.deliveries_per_second / bares[i].deliveries_per_second).toFixed(3)),
    })),
  };
}

async function main(): Promise<void> {
  const events1 = Number(process.env.BENCH_EVENTS ?? 2000);
  const events50 = Number(process.env.BENCH_FANOUT_EVENTS ?? 400);
  const paced = Number(process.env.BENCH_PACED_EVENTS ?? 2000);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const emitters = Number(process.env.BENCH_EMITTERS ?? 8);
  const concurrency = Number(process.env.WEBHOOK_CONCURRENCY ?? 50);
  const workerShape = process.env.BENCH_WEBHOOKS_WORKER === 'in-process' ? 'in-process' : 'process';

  Object.assign(process.env, {
    DATABASE_URL: await freshDatabase(),
    MIGRATE_ON_START: 'true',
    QUEUE_PREFIX: `bench_webhooks_${randomBytes(4).toString('hex')}`,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    RATE_LIMIT_PER_SECOND: '1000000',
    RATE_LIMIT_BURST: '1000000',
    WORKER_IN_PROCESS: workerShape === 'in-process' ? 'true' : 'false',
  });
  const receiver = await startServer('bench/webhooks/receiver.ts', []);
  const receiverUrl = `http://127.0.0.1:${receiver.port}`;

  countStatements();
  const { AppModule } = await import('src/app.module');
  const { configureApp } = await import('src/app.setup');
  const { EventsService } = await import('src/core/events/events.service');
  const { TenancyService } = await import('src/core/tenancy/tenancy.service');
  const { ServiceExpressAdapter } = await import('src/core/http/service-express-adapter');
  const app: INestApplication = await NestFactory.create(AppModule, new ServiceExpressAdapter(), {
    logger: ['error', 'warn'],
    bodyParser: false,
  });
  configureApp(app, { swagger: false });
  await app.listen(0, '127.0.0.1');
  const apiUrl = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
  // As deployed (docker-compose): the relay and the delivery consumer run in the worker process.
  const worker = workerShape === 'process' ? await startWorker() : undefined;
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  const meter = new CostMeter(admin, APPLICATION_NAME, receiver.child.pid!, worker?.metered);
  const scenarios = new Scenarios(
    app,
    apiUrl,
    receiverUrl,
    receiver.port,
    meter,
    app.get(TenancyService),
    app.get(EventsService),
    emitters,
  );

  try {
    const one = await scenarios.tenant(1);
    const fifty = await scenarios.tenant(50);
    await scenarios.service(one, 200); // warm-up: JIT, pools, connections
    await scenarios.service(fifty, 40);
    const deliveringPid = worker?.metered.pid ?? process.pid;
    const single = await fanOut(scenarios, one, events1, rounds, concurrency, deliveringPid);
    // Commit → 2xx for one endpoint at a steady 400 events/s (target: p50 < 50 ms, p99 < 200 ms).
    const onePaced = await scenarios.service(one, paced, 400);
    const many = await fanOut(scenarios, fifty, events50, rounds, concurrency, deliveringPid);
    const verified = await verifySamples(receiverUrl, [one, fifty]);
    const entry = (f: FanOut) => ({
      ...f.service,
      bare_sender_deliveries_per_second: f.bare_sender_deliveries_per_second,
      ratio_to_bare_sender: f.ratio_to_bare_sender,
      rounds: f.rounds,
      bare_sender: f.bare,
    });
    process.stdout.write(
      `${JSON.stringify(
        {
          bench: 'webhooks',
          note:
            workerShape === 'process'
              ? 'commit of the emitting transaction to the receiver 2xx; API and emitters in one process, relay and delivery in the worker process'
              : 'commit of the emitting transaction to the receiver 2xx; app (API + relay + worker) in one process',
          worker: workerShape,
          relay_interval_ms: Number(process.env.EVENT_RELAY_INTERVAL_MS ?? 200),
          webhook_concurrency: concurrency,
          emitters,
          rounds,
          samples_verified_with_standardwebhooks: verified,
          latency_at_400_events_per_second_ms: { p50: onePaced.latency_ms.p50, p99: onePaced.latency_ms.p99 },
          by_endpoint_count: Object.fromEntries(
            [single, many].map((f) => [
              String(f.service.endpoints),
              {
                deliveries_per_second: f.service.deliveries_per_second,
                bare_sender_deliveries_per_second: f.bare_sender_deliveries_per_second,
                ratio_to_bare_sender: f.ratio_to_bare_sender,
                latency_ms: { p50: f.service.latency_ms.p50, p99: f.service.latency_ms.p99 },
              },
            ]),
          ),
          results: [entry(single), onePaced, entry(many)],
        },
        null,
        2,
      )}\n`,
    );
  } finally {
    await worker?.stop();
    await app.close();
    await receiver.stop();
    meter.close();
    await admin.end();
    await adminQuery(`DROP DATABASE IF EXISTS "${DB}" WITH (FORCE)`);
    await dropQueueKeys(process.env.QUEUE_PREFIX as string);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
