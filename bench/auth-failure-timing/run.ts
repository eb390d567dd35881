import 'reflect-metadata';
import { request } from 'node:http';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from 'src/core/database/data-source-options';
import { runMigrations } from 'src/core/database/migrate';
import { ApiKeyEntity } from 'src/core/tenancy/api-key.entity';
import { TenancyService } from 'src/core/tenancy/tenancy.service';
import { TenantEntity } from 'src/core/tenancy/tenant.entity';
import { startService } from 'bench/lib/server-process';

/**
 * A failed Basic login must cost the same whether its public key exists or not (docs/decisions.md,
 * Authentication): medians over BENCH_TRIES (400) failures of each kind, sent one at a time and
 * alternated so noise hits both alike: a known key (cached by a success first) with a wrong secret,
 * and an unknown key (a new one each time). Target: the medians within 10 %.
 */
const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB = process.env.BENCH_AUTH_FAILURE_DB ?? 'svc_bench_auth_failure';
const TRIES = Number(process.env.BENCH_TRIES ?? 400);
const PATH = '/v1/webhooks/event-types';

async function prepareDatabase(): Promise<{ url: string; publicKey: string; secret: string }> {
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
  return { url: url.toString(), publicKey: test.key.public_key, secret: test.secret };
}

function timedGet(port: number, user: string, password: string): Promise<{ status: number; ms: number }> {
  const authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = request({ host: '127.0.0.1', port, path: PATH, headers: { authorization } }, (res) => {
      res.resume();
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, ms: Number(process.hrtime.bigint() - started) / 1e6 }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

async function main(): Promise<void> {
  const { url, publicKey, secret } = await prepareDatabase();
  const server = await startService('bench/auth/servers.ts', ['app'], {
    MIGRATE_ON_START: 'false',
    WORKER_IN_PROCESS: 'false',
    DATABASE_URL: url,
    // Every failure is measured, none refused by the failed-login limit.
    AUTH_FAILURES_PER_KEY_PER_MINUTE: '100000000',
    AUTH_FAILURES_PER_ADDRESS_PER_MINUTE: '100000000',
    RATE_LIMIT_BURST: '10000000',
    RATE_LIMIT_PER_SECOND: '10000000',
  });
  try {
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 50; i++) {
      await timedGet(server.port, publicKey, secret); // warm-up, and the key in the cache
      await timedGet(server.port, `pk_test_${randomBytes(16).toString('hex')}`, 'sk_wrong');
    }
    for (let i = 0; i < TRIES; i++) {
      // A success keeps the key cached, so each known-key failure starts from the cache.
      await timedGet(server.port, publicKey, secret);
      const pair = [
        () => timedGet(server.port, publicKey, `${secret}x`).then((r) => known.push(check(r))),
        () =>
          timedGet(server.port, `pk_test_${randomBytes(16).toString('hex')}`, `${secret}x`).then((r) =>
            unknown.push(check(r)),
          ),
      ];
      for (const send of i % 2 ? pair.reverse() : pair) {
        await send();
      }
    }
    const knownMs = median(known);
    const unknownMs = median(unknown);
    const difference = Math.abs(knownMs - unknownMs) / Math.max(knownMs, unknownMs);
    process.stdout.write(
      `${JSON.stringify(
        {
          tries: TRIES,
          median_ms: { known_key_wrong_secret: round(knownMs), unknown_key: round(unknownMs) },
          difference_percent: round(difference * 100),
          within_10_percent: difference <= 0.1,
        },
        null,
        2,
      )}\n`,
    );
  } finally {
    await server.stop();
  }
}

function check(r: { status: number; ms: number }): number {
  if (r.status !== 401) {
    throw new Error(`a failed login answered ${r.status}`);
  }
  return r.ms;
}

const round = (n: number) => Math.round(n * 1000) / 1000;

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
