import { randomBytes } from 'node:crypto';
import { isRemote, itLocal, TestTenant, useTestContext } from '../support/app';
import { investorBody } from '../investors/fixtures';
import { ApiProcess, startApiProcess } from './support/api-process';
import { eventually } from '../webhooks/support/webhooks';
import { contextOver } from './support/spread';

/**
 * A database that refuses new connections (PostgreSQL's 53300, too many connections) while the
 * partner's requests need them: each such request answers 503 SVC-503-001 with Retry-After, not
 * 500, and writes nothing; sent again with its Idempotency-Key once the database takes
 * connections, it creates the investor once. The API runs as a process of its own whose database
 * role has a connection limit (a superuser has none): the limit is set to the connections the
 * process already holds, so every new one its pool opens is refused.
 */
describe('A database that refuses connections', () => {
  const ctx = useTestContext();
  let tenant: TestTenant;
  let api: ApiProcess | undefined;
  const role = `svc_limited_${randomBytes(4).toString('hex')}`;
  beforeAll(() => startLimitedApi(), 120_000);
  afterAll(() => stopApiAndDropRole());

  itLocal(
    'answers 503 with Retry-After for each request refused a connection, and writes nothing for it',
    async () => {
      const viaApi = contextOver(ctx, [api!.baseUrl]);
      expect((await viaApi.as(tenant.test).get('/v1/investors')).status).toBe(200);
      const held = await heldConnections();
      // The pool holds fewer than it may (POOL_MAX): the requests beyond those it holds open new ones.
      expect(held).toBeLessThan(POOL_MAX);
      await ctx.dataSource.query(`ALTER ROLE ${role} CONNECTION LIMIT ${held}`);
      const keys = Array.from({ length: CONCURRENT_CREATIONS }, (_, i) => `refused-${role}-${i}`);
      const bodies = keys.map(() => investorBody());
      const send = (i: number) => viaApi.as(tenant.test).post('/v1/investors', bodies[i], keys[i]);
      let answers;
      try {
        answers = await Promise.all(keys.map((_, i) => send(i)));
      } finally {
        await ctx.dataSource.query(`ALTER ROLE ${role} CONNECTION LIMIT -1`);
      }
      const refused = answers.filter((res) => res.status === 503);
      expect(
        answers.filter((res) => res.status !== 201 && res.status !== 503).map((res) => res.body),
      ).toEqual([]);
      expect(refused.length).toBeGreaterThan(0);
      for (const res of refused) {
        expect(res.headers['retry-after']).toBe('1');
        expect(res.body.error).toMatchObject({ type: 'api_error', code: 'SVC-503-001' });
        expect(res.body.error.message).toMatch(/Idempotency-Key/);
      }
      const created = answers.filter((res) => res.status === 201).length;
      expect(await investorCount()).toBe(created);
      // The operator sees each refusal at once: an error line naming the request and the cause.
      const refusedIds = refused.map((res) => res.headers['request-id']);
      const logged = await eventually(
        () => Promise.resolve(api!.errorLogs().find((line) => refusedIds.some((id) => line.includes(id)))),
        (line) => line !== undefined,
      );
      expect(logged).toMatch(/too many connections for role/);

      // The database takes connections again. The partner waits Retry-After and sends each refused
      // request again with its key (again while any is refused): each runs once; the rest replay.
      const again = [...answers];
      for (let round = 0; round < 10 && again.some((res) => res.status !== 201); round++) {
        await new Promise((resolve) => setTimeout(resolve, 1000 * Number(refused[0].headers['retry-after'])));
        const pending = keys.map((_, i) => i).filter((i) => again[i].status !== 201);
        (await Promise.all(pending.map(send))).forEach((res, j) => (again[pending[j]] = res));
      }
      expect(again.map((res) => [res.status, res.body.error?.code])).toEqual(
        keys.map(() => [201, undefined]),
      );
      const replays = await Promise.all(keys.map((_, i) => send(i)));
      expect(replays.map((res) => [res.headers['idempotent-replayed'], res.body.id])).toEqual(
        again.map((res) => ['true', res.body.id]),
      );
      expect(await investorCount()).toBe(CONCURRENT_CREATIONS);
    },
  );

  itLocal(
    'writes the error line of a lone refusal at once, not when later lines fill the buffer',
    async () => {
      const viaApi = contextOver(ctx, [api!.baseUrl]);
      // The pool's idle connections end and no new one is allowed (the LISTEN connections stay).
      await ctx.dataSource.query(`ALTER ROLE ${role} CONNECTION LIMIT 0`);
      try {
        await ctx.dataSource.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1 AND query NOT ILIKE 'LISTEN%'`,
          [role],
        );
        const res = await eventually(
          () => viaApi.as(tenant.test).get('/v1/investors'),
          (answer) => answer.status === 503,
        );
        const id = res.headers['request-id'];
        await eventually(
          () => Promise.resolve(api!.errorLogs().find((line) => line.includes(id))),
          (line) => line !== undefined,
        );
      } finally {
        await ctx.dataSource.query(`ALTER ROLE ${role} CONNECTION LIMIT -1`);
      }
    },
  );

  async function investorCount(): Promise<number> {
    const [{ count }] = await ctx.dataSource.query(
      `SELECT count(*)::int AS count FROM investors WHERE tenant_id = $1`,
      [tenant.tenantId],
    );
    return count as number;
  }

  /** A tenant, and the API process on a role whose connections can be limited (nothing remotely). */
  async function startLimitedApi(): Promise<void> {
    if (isRemote) {
      return;
    }
    tenant = await ctx.createTenant();
    // A login role that owns nothing and reaches the file's tables through membership.
    await ctx.dataSource.query(`CREATE ROLE ${role} LOGIN IN ROLE postgres`);
    const url = new URL(process.env.DATABASE_URL as string);
    url.username = role;
    api = await startApiProcess({
      DATABASE_URL: url.toString(),
      DATABASE_POOL_MAX: String(POOL_MAX),
      MIGRATE_ON_START: 'false',
      WORKER_IN_PROCESS: 'false',
      LOG_LEVEL: 'error',
    });
  }

  /** Stops the API process, then drops its role through the file's app (which closes after this). */
  async function stopApiAndDropRole(): Promise<void> {
    await api?.kill();
    if (!isRemote) {
      await dropRole();
    }
  }

  async function dropRole(): Promise<void> {
    for (let attempt = 0; attempt < 50; attempt++) {
      await ctx.dataSource.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1`,
        [role],
      );
      const dropped = await ctx.dataSource.query(`DROP ROLE IF EXISTS ${role}`).then(
        () => true,
        () => false, // a backend still ending holds the role a moment longer
      );
      if (dropped) {
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async function heldConnections(): Promise<number> {
    const [{ count }] = await ctx.dataSource.query(
      `SELECT count(*)::int AS count FROM pg_stat_activity WHERE usename = $1`,
      [role],
    );
    return count as number;
  }
});

const CONCURRENT_CREATIONS = 24;
const POOL_MAX = 8;
