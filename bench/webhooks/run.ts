import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import Redis from 'ioredis';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { startServer } from 'bench/lib/server-process';

/**
 * Webhook delivery throughput: events per second from the commit of the emitting transaction
 * to the receiver's 2xx, with 1 and then 50 endpoints per tenant. The app runs in this process
 * (relay and consumers in-process, as in the sandbox) on a fresh database; the receiver runs in
 * its own process on 127.0.0.1. Bounded: BENCH_EVENTS events (2000) for one endpoint,
 * BENCH_FANOUT_EVENTS (400, so 20,000 deliveries) for 50.
 */
const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB = 'svc_bench_webhooks';

interface Figures {
  endpoints: number;
  events: number;
  deliveries: number;
  seconds: number;
  /** Time the emitters took to commit every event (the delivery side runs meanwhile). */
  emit_seconds: number;
  events_per_second: number;
  deliveries_per_second: number;
  latency_ms: { p50: number; p90: number; p99: number; max: number };
}

async function freshDatabase(): Promise<string> {
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${DB}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${DB}"`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${DB}`;
  return url.toString();
}

async function dropDatabase(): Promise<void> {
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${DB}" WITH (FORCE)`);
  await admin.end();
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

function percentile(sorted: number[], p: number): number {
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0);
}

async function main(): Promise<void> {
  const events1 = Number(process.env.BENCH_EVENTS ?? 2000);
  const events50 = Number(process.env.BENCH_FANOUT_EVENTS ?? 400);
  const emitters = Number(process.env.BENCH_EMITTERS ?? 8);

  Object.assign(process.env, {
    DATABASE_URL: await freshDatabase(),
    MIGRATE_ON_START: 'true',
    QUEUE_PREFIX: `bench_webhooks_${randomBytes(4).toString('hex')}`,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    RATE_LIMIT_PER_SECOND: '1000000',
    RATE_LIMIT_BURST: '1000000',
  });
  const receiver = await startServer('bench/webhooks/receiver.ts', []);
  const receiverUrl = `http://127.0.0.1:${receiver.port}`;

  const { AppModule } = await import('src/app.module');
  const { configureApp } = await import('src/app.setup');
  const { EventsService } = await import('src/core/events/events.service');
  const { TenancyService } = await import('src/core/tenancy/tenancy.service');
  const app: INestApplication = await NestFactory.create(AppModule, {
    logger: ['error', 'warn'],
    bodyParser: false,
  });
  configureApp(app, { swagger: false });
  await app.listen(0, '127.0.0.1');
  const apiUrl = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
  const dataSource = app.get(DataSource);
  const events = app.get(EventsService);

  async function scenario(endpointCount: number, total: number): Promise<Figures> {
    const { tenant, test } = await app.get(TenancyService).createTenant(`Bench ${endpointCount}`, [], false);
    const authorization = `Basic ${Buffer.from(`${test.key.public_key}:${test.secret}`).toString('base64')}`;
    for (let i = 0; i < endpointCount; i++) {
      const res = await fetch(`${apiUrl}/v1/webhooks`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body: JSON.stringify({
          name: `bench ${i}`,
          url: `${receiverUrl}/hooks/${i}`,
          eventTypeNames: ['order.*'],
        }),
      });
      if (res.status !== 201) {
        throw new Error(`registering an endpoint answered ${res.status}: ${await res.text()}`);
      }
    }
    await fetch(`${receiverUrl}/arrivals`); // clear

    const committedAt = new Map<string, number>();
    let next = 0;
    const emitter = async () => {
      while (next < total) {
        next++;
        const event = await dataSource.transaction((manager) =>
          events.emit(manager, {
            tenantId: tenant.id,
            livemode: false,
            event: 'order.filled',
            data: { id: `ord_${next}`, symbol: 'AAPL', side: 'buy', status: 'filled', filled_quantity: '1' },
          }),
        );
        committedAt.set(event.id, Date.now());
      }
    };
    const started = Date.now();
    await Promise.all(Array.from({ length: emitters }, emitter));
    const emitSeconds = (Date.now() - started) / 1000;

    const expected = total * endpointCount;
    const deadline = Date.now() + 10 * 60_000;
    for (;;) {
      const count = Number(await (await fetch(`${receiverUrl}/count`)).text());
      if (count >= expected) {
        break;
      }
      if (Date.now() > deadline) {
        throw new Error(`only ${count} of ${expected} deliveries arrived`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    const arrivals = (await (await fetch(`${receiverUrl}/arrivals`)).json()) as Array<[string, number]>;
    // An event is delivered when its last endpoint has it.
    const done = new Map<string, number>();
    for (const [id, at] of arrivals) {
      done.set(id, Math.max(done.get(id) ?? 0, at));
    }
    const latencies = [...done.entries()]
      .map(([id, at]) => at - (committedAt.get(id) ?? at))
      .sort((a, b) => a - b);
    const seconds = (Math.max(...done.values()) - started) / 1000;
    return {
      endpoints: endpointCount,
      events: total,
      deliveries: arrivals.length,
      seconds: Number(seconds.toFixed(2)),
      emit_seconds: Number(emitSeconds.toFixed(2)),
      events_per_second: Math.round(total / seconds),
      deliveries_per_second: Math.round(arrivals.length / seconds),
      latency_ms: {
        p50: percentile(latencies, 0.5),
        p90: percentile(latencies, 0.9),
        p99: percentile(latencies, 0.99),
        max: percentile(latencies, 1),
      },
    };
  }

  try {
    await scenario(1, 200); // warm-up: JIT, pools, connections
    const one = await scenario(1, events1);
    const fifty = await scenario(50, events50);
    process.stdout.write(
      `${JSON.stringify(
        {
          bench: 'webhooks',
          note: 'commit of the emitting transaction to the receiver 2xx; app (API + relay + worker) in one process',
          relay_interval_ms: Number(process.env.EVENT_RELAY_INTERVAL_MS ?? 200),
          webhook_concurrency: Number(process.env.WEBHOOK_CONCURRENCY ?? 50),
          emitters,
          results: [one, fifty],
        },
        null,
        2,
      )}\n`,
    );
  } finally {
    await app.close();
    await receiver.stop();
    await dropDatabase();
    await dropQueueKeys(process.env.QUEUE_PREFIX as string);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
