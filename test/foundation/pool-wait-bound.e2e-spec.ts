import { Client } from 'pg';
import { isRemote, itLocal, TestTenant, useTestContext } from '../support/app';
import { investorBody } from '../investors/fixtures';
import { ApiProcess, startApiProcess } from './support/api-process';
import { contextOver } from './support/spread';

/**
 * Requests that wait for a pool connection wait DATABASE_POOL_WAIT_MS at most: while every
 * connection of the process is held by transactions that cannot go on (here, inserts waiting on a
 * table lock the test holds), the requests queued behind them answer 503 SVC-503-001 with
 * Retry-After within the bound instead of waiting as long as the holders do, and write nothing;
 * sent again with their Idempotency-Keys once connections are free, each creates its investor once.
 */
describe('A bounded wait for a pool connection', () => {
  const ctx = useTestContext();
  let tenant: TestTenant;
  let api: ApiProcess | undefined;
  beforeAll(() => startApi(), 120_000);
  afterAll(() => api?.kill());

  itLocal(
    'queued requests answer 503 with Retry-After once the wait is over, then succeed when sent again',
    async () => {
      const viaApi = contextOver(ctx, [api!.baseUrl]);
      // The key's lookup and the tenant's settings are read (and kept) before the connections are held.
      expect((await viaApi.as(tenant.test).get('/v1/investors')).status).toBe(200);
      const keys = Array.from({ length: REQUESTS }, (_, i) => `pool-wait-${tenant.tenantId}-${i}`);
      const bodies = keys.map(() => investorBody());
      const send = (i: number) => viaApi.as(tenant.test).post('/v1/investors', bodies[i], keys[i]);

      const locker = new Client({ connectionString: process.env.DATABASE_URL });
      await locker.connect();
      let releasedAt = Number.POSITIVE_INFINITY;
      let answers: { res: Awaited<ReturnType<typeof send>>; at: number }[];
      try {
        await locker.query('BEGIN');
        await locker.query('LOCK TABLE "investors" IN EXCLUSIVE MODE');
        const sent = keys.map((_, i) => send(i).then((res) => ({ res, at: Date.now() })));
        // The lock is held far longer than the bound: without it the queued requests would wait too.
        await new Promise((resolve) => setTimeout(resolve, HELD_MS));
        await locker.query('ROLLBACK');
        releasedAt = Date.now();
        answers = await Promise.all(sent);
      } finally {
        await locker.end();
      }

      expect(
        answers.filter(({ res }) => res.status !== 201 && res.status !== 503).map(({ res }) => res.body),
      ).toEqual([]);
      const refused = answers.filter(({ res }) => res.status === 503);
      // At most POOL_MAX requests hold a connection; the rest waited for one and were refused.
      expect(refused.length).toBeGreaterThanOrEqual(REQUESTS - POOL_MAX);
      for (const { res, at } of refused) {
        expect(at).toBeLessThan(releasedAt);
        expect(res.headers['retry-after']).toBe('1');
        expect(res.body.error).toMatchObject({ type: 'api_error', code: 'SVC-503-001' });
      }
      expect(await investorCount()).toBe(answers.filter(({ res }) => res.status === 201).length);

      const again = await Promise.all(keys.map((_, i) => send(i)));
      expect(again.map((res) => res.status)).toEqual(keys.map(() => 201));
      expect(new Set(again.map((res) => res.body.id)).size).toBe(REQUESTS);
      expect(await investorCount()).toBe(REQUESTS);
    },
  );

  /** A tenant, and an API process with a small pool and a short wait for it (nothing remotely). */
  async function startApi(): Promise<void> {
    if (isRemote) {
      return;
    }
    tenant = await ctx.createTenant();
    api = await startApiProcess({
      DATABASE_POOL_MAX: String(POOL_MAX),
      DATABASE_POOL_WAIT_MS: String(POOL_WAIT_MS),
      MIGRATE_ON_START: 'false',
      WORKER_IN_PROCESS: 'false',
      LOG_LEVEL: 'error',
    });
  }

  async function investorCount(): Promise<number> {
    const [{ count }] = await ctx.dataSource.query(
      `SELECT count(*)::int AS count FROM investors WHERE tenant_id = $1`,
      [tenant.tenantId],
    );
    return count as number;
  }
});

const POOL_MAX = 2;
const POOL_WAIT_MS = 300;
const HELD_MS = 4000;
const REQUESTS = 6;
