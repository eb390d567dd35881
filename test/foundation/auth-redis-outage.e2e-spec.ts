import { ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { basic, isRemote, itLocal, TestTenant, useTestContext } from '../support/app';
import { ApiProcess, startApiProcess } from './support/api-process';

/**
 * With Redis frozen (SIGSTOP) or gone, a failed login answers at once (the limiter waits at most
 * SHARED_LIMIT_TIMEOUT_MS for Redis) and failed logins stay limited by the process's own buckets,
 * which /health/ready reports. The real API runs as a child process on a throw-away redis-server
 * of its own (never the shared one), so stopping and killing that Redis touches nothing else.
 */
describe('Failed logins while Redis is frozen or down', () => {
  const ctx = useTestContext();
  let tenant: TestTenant;
  let api: ApiProcess | undefined;
  let redis: ChildProcess | undefined;
  let port = 0;
  beforeAll(() => startRedisAndApi(), 120_000);
  afterAll(() => api?.kill());
  afterAll(() => redis?.kill('SIGKILL'));

  itLocal(
    'Redis frozen: failed logins answer at once and are limited per process',
    async () => {
      expect(await failedLogin(tenant.test.publicKey)).toBe(401);
      redis!.kill('SIGSTOP');
      try {
        await limitedAfterTwenty(`${tenant.test.publicKey.slice(0, -2)}zz`);
        // A correct key is never refused by the failure limit.
        const ok = await fetch(`${api!.baseUrl}/v1/webhooks/event-types`, {
          headers: { authorization: basic(tenant.test) },
          signal: AbortSignal.timeout(5000),
        });
        expect(ok.status).toBe(200);
        expect(await failureStore()).toEqual({ status: 'up', store: 'process' });
      } finally {
        redis!.kill('SIGCONT');
      }
    },
    90_000,
  );

  itLocal(
    'Redis down: failed logins stay limited per process, and shared again once it is back',
    async () => {
      redis!.kill('SIGKILL');
      await new Promise((resolve) => redis!.once('exit', resolve));
      try {
        await limitedAfterTwenty('pk_test_unknown_while_redis_is_down');
        expect(await failureStore()).toEqual({ status: 'up', store: 'process' });
      } finally {
        redis = await startRedis(port);
      }
      let store: unknown;
      for (let i = 0; i < 40 && (store as { store?: string } | undefined)?.store !== 'redis'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        expect(await failedLogin(`pk_test_after_redis_returned_${i}`)).toBe(401);
        store = await failureStore();
      }
      expect(store).toEqual({ status: 'up', store: 'redis' });
    },
    90_000,
  );

  /** A tenant, and the real API as a child process on a redis-server of its own (in process only). */
  async function startRedisAndApi(): Promise<void> {
    if (isRemote) {
      return;
    }
    tenant = await ctx.createTenant();
    port = await freePort();
    redis = await startRedis(port);
    api = await startApiProcess({
      REDIS_URL: `redis://127.0.0.1:${port}/0`,
      // This file's own single Redis, even when the suite runs against a cluster.
      REDIS_CLUSTER_NODES: '',
      MIGRATE_ON_START: 'false',
      LOG_LEVEL: 'silent',
    });
  }

  /** A failed login; rejects when the answer takes longer than the normal path ever could. */
  const failedLogin = async (publicKey: string) =>
    (
      await fetch(`${api!.baseUrl}/v1/webhooks/event-types`, {
        headers: { authorization: basic({ id: '', publicKey, secret: 'wrong-secret' }) },
        signal: AbortSignal.timeout(5000),
      })
    ).status;

  const failureStore = async () => {
    const body = (await (await fetch(`${api!.baseUrl}/health/ready`)).json()) as Record<string, any>;
    return (body.info?.auth_failure_limit ?? body.error?.auth_failure_limit) as unknown;
  };

  async function limitedAfterTwenty(publicKey: string): Promise<void> {
    const statuses: number[] = [];
    for (let i = 0; i < 26; i++) {
      statuses.push(await failedLogin(publicKey));
    }
    // A burst of 20, refilled at one every 3 s while these run: past it, failures answer 429.
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(401));
    expect(statuses.slice(20)).toContain(429);
    expect(statuses[25]).toBe(429);
  }
});

/** A free loopback port for this file's own redis-server (never the shared one on 6379). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

function startRedis(port: number): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    child.once('error', reject);
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('Ready to accept connections')) {
        resolve(child);
      }
    });
  });
}
