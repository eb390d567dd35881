import { investorBody, investorKey } from '../investors/fixtures';
import { basic, isRemote, useTenant, useTestContext } from '../support/app';
import { replicasCaughtUp } from '../support/database';

describe('Request logs', () => {
  const ctx = useTestContext();
  const tenant = useTenant(ctx);
  const other = useTenant(ctx);
  let failedId: string;
  let failedBody: { error: Record<string, unknown> };
  let failedStatus: number;
  let okId: string;
  beforeAll(() => logOneRefusalAndOneRead());

  it('records a failed request with the error the client received, behind its request_log_url', async () => {
    expect(failedBody.error.request_log_url).toMatch(new RegExp(`/dashboard/logs/${failedId}$`));
    const log = await logOf(failedId);
    expect(log).toMatchObject({
      id: failedId,
      object: 'request_log',
      livemode: false,
      method: 'POST',
      path: '/v1/investors',
      status: failedStatus,
      error_code: failedBody.error.code,
      idempotency_key: 'request-log-test-key-0001',
      idempotent_replayed: false,
      legacy: false,
      api_key_id: tenant.test.id,
    });
    expect(log.error).toEqual(failedBody.error);
  });

  it('records a successful request without its body, query values that may be personal redacted', async () => {
    const log = await logOf(okId);
    expect(log).toMatchObject({
      method: 'GET',
      path: '/v1/investors',
      status: 200,
      error: null,
      error_code: null,
    });
    expect(log.query).toEqual({ limit: '5', email: '[redacted]' });
  });

  it('never stores personal data, secrets or headers', async () => {
    for (const id of [failedId, okId]) {
      const text = JSON.stringify(await logOf(id));
      expect(text).not.toContain(EMAIL);
      expect(text).not.toContain(NAME);
      expect(text).not.toContain(tenant.test.secret);
      expect(text).not.toMatch(/basic /i);
    }
  });

  it('keeps no personal data or secret in the stored row itself', async () => {
    await logOf(failedId);
    // The listing answers every stored field of each row.
    const listed = await ctx.as(tenant.test).get('/v1/request-logs?limit=100');
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((l: RequestLog) => l.id)).toEqual(expect.arrayContaining([failedId, okId]));
    const answered = JSON.stringify(listed.body);
    expect(answered).not.toContain(EMAIL);
    expect(answered).not.toContain(NAME);
    expect(answered).not.toContain(tenant.test.secret);
    if (!isRemote) {
      const rows: Array<Record<string, unknown>> = await ctx.dataSource.query(
        `SELECT * FROM "request_logs" WHERE "tenant_id" = $1`,
        [tenant.tenantId],
      );
      expect(rows.length).toBeGreaterThanOrEqual(2);
      const text = JSON.stringify(rows);
      expect(text).not.toContain(EMAIL);
      expect(text).not.toContain(NAME);
      expect(text).not.toContain(tenant.test.secret);
    }
  });

  it('marks replayed idempotent answers and legacy requests', async () => {
    const replay = await refusedCreate();
    const legacy = await ctx.as(tenant.test).get('/legacy/v1/webhooks');
    expect(legacy.status).toBe(200);
    const legacyLog = await logOf(legacy.headers['request-id']);
    expect(legacyLog).toMatchObject({ legacy: true, path: '/legacy/v1/webhooks', status: 200 });
    const replayLog = await logOf(replay.headers['request-id']);
    expect(replayLog.idempotent_replayed).toBe(replay.headers['idempotent-replayed'] === 'true');
    expect(replayLog.status).toBe(replay.status);
  });

  it('filters by status, outcome, method, path and created range, with cursor pages', async () => {
    await logOf(failedId);
    await logOf(okId);
    const list = (q: string) => ctx.as(tenant.test).get(`/v1/request-logs?${q}`);
    const failedStatus = (await logOf(failedId)).status;

    const byStatus = await list(`status=${failedStatus}`);
    expect(byStatus.status).toBe(200);
    expect(byStatus.body.data.map((l: RequestLog) => l.id)).toContain(failedId);
    expect(byStatus.body.data.every((l: RequestLog) => l.status === failedStatus)).toBe(true);

    const failedOnly = await list('outcome=failed');
    expect(failedOnly.body.data.every((l: RequestLog) => l.status >= 400)).toBe(true);
    expect(failedOnly.body.data.map((l: RequestLog) => l.id)).not.toContain(okId);

    const posts = await list('method=POST');
    expect(posts.body.data.length).toBeGreaterThan(0);
    expect(posts.body.data.every((l: RequestLog) => l.method === 'POST')).toBe(true);

    const investors = await list('path=/v1/investors');
    const ids = investors.body.data.map((l: RequestLog) => l.id);
    expect(ids).toEqual(expect.arrayContaining([failedId, okId]));
    expect(investors.body.data.every((l: RequestLog) => l.path.startsWith('/v1/investors'))).toBe(true);
    expect((await list('path=/v1/investors_')).body.data).toEqual([]);

    const now = Math.floor(Date.now() / 1000);
    expect((await list(`created[gte]=${now + 3600}`)).body.data).toEqual([]);
    expect(
      (await list(`created[lte]=${now + 5}&path=/v1/investors`)).body.data.length,
    ).toBeGreaterThanOrEqual(2);

    const first = await list('limit=1&path=/v1/investors');
    expect(first.body).toMatchObject({ object: 'list', url: '/v1/request-logs', has_more: true });
    const second = await list(`limit=1&path=/v1/investors&starting_after=${first.body.data[0].id}`);
    expect(second.body.data).toHaveLength(1);
    expect(second.body.data[0].id).not.toBe(first.body.data[0].id);

    const bad = await list('created[between]=1');
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe('created[between]');
    expect((await list('method=FETCH')).status).toBe(400);
  });

  it('never stores the body of a successful request; records the investor scope; investor keys get 403', async () => {
    const body = investorBody({ contact: { email_address: EMAIL } });
    const created = await ctx.as(tenant.test).post('/v1/investors', body);
    expect(created.status).toBe(201);
    const createdLog = await logOf(created.headers['request-id']);
    expect(createdLog).toMatchObject({ method: 'POST', path: '/v1/investors', status: 201, error: null });
    const text = JSON.stringify(createdLog);
    for (const value of [
      EMAIL,
      body.identity.tax_id,
      body.contact.phone_number,
      'San Mateo',
      created.body.id,
    ]) {
      expect(text).not.toContain(value);
    }
    const key = await investorKey(ctx, tenant.test, created.body.id);
    const own = await ctx.as(key).get(`/v1/investors/${created.body.id}`);
    expect(own.status).toBe(200);
    expect(await logOf(own.headers['request-id'])).toMatchObject({
      investor_id: created.body.id,
      api_key_id: key.id,
    });
    expect((await ctx.as(key).get('/v1/request-logs')).status).toBe(403);
  });

  it('records credentials refused on a known public key under its tenant and mode, never the secret', async () => {
    const wrongSecret = 'sk_wrong_secret_for_request_log_test_0001';
    const refused = await ctx
      .http()
      .get('/v1/webhooks?limit=2')
      .set('Authorization', basic({ ...tenant.test, secret: wrongSecret }));
    expect(refused.status).toBe(401);
    const id = refused.headers['request-id'];
    expect(refused.body.error.request_log_url).toMatch(new RegExp(`/dashboard/logs/${id}$`));
    const log = await logOf(id);
    expect(log).toMatchObject({
      id,
      livemode: false,
      method: 'GET',
      path: '/v1/webhooks',
      query: { limit: '2' },
      status: 401,
      error_code: 'SVC-401-001',
      api_key_id: tenant.test.id,
    });
    expect(log.error).toEqual(refused.body.error);
    expect(JSON.stringify(log)).not.toContain(wrongSecret);
    expect((await ctx.as(tenant.live).get(`/v1/request-logs/${id}`)).status).toBe(404);
    expect((await ctx.as(other.test).get(`/v1/request-logs/${id}`)).status).toBe(404);

    const liveRefused = await ctx
      .http()
      .get('/v1/webhooks')
      .set('Authorization', basic({ ...tenant.live, secret: wrongSecret }));
    expect(liveRefused.status).toBe(401);
    expect(await logOf(liveRefused.headers['request-id'], tenant.live)).toMatchObject({
      livemode: true,
      status: 401,
      api_key_id: tenant.live.id,
    });
  });

  it('records failures before authentication (malformed body, unknown route) under the key they name', async () => {
    const malformed = await ctx
      .http()
      .post('/v1/investors')
      .set('Authorization', basic(tenant.test))
      .set('Content-Type', 'application/json')
      .send('{"email": ');
    expect(malformed.status).toBe(400);
    const unknownRoute = await ctx.as(tenant.test).get('/v1/no-such-route-for-request-logs');
    expect(unknownRoute.status).toBe(404);
    for (const res of [malformed, unknownRoute]) {
      const log = await logOf(res.headers['request-id']);
      expect(log).toMatchObject({ status: res.status, api_key_id: tenant.test.id, livemode: false });
      expect(log.error).toEqual(res.body.error);
    }
  });

  it('explains why a request refused before any key was recognised has no log', async () => {
    const unknown = await ctx
      .http()
      .get('/v1/webhooks')
      .set('Authorization', basic({ ...tenant.test, publicKey: `${tenant.test.publicKey}x` }));
    expect(unknown.status).toBe(401);
    const anonymous = await ctx.http().get('/v1/webhooks');
    expect(anonymous.status).toBe(401);
    // Both were answered before a later request of the tenant, which is readable: they never will be.
    await logOf((await ctx.as(tenant.test).get('/v1/webhooks')).headers['request-id']);
    for (const res of [unknown, anonymous]) {
      const missing = await ctx.as(tenant.test).get(`/v1/request-logs/${res.headers['request-id']}`);
      expect(missing.status).toBe(404);
      expect(missing.body.error.message).toMatch(/refused before its API key was recognised/);
    }
  });

  it('records requests carrying NUL and lone surrogates (replaced by U+FFFD) with the rest of their batch', async () => {
    const auth = basic(tenant.test);
    // Answered together, so flushed in one batch with the ordinary request.
    const [nulInQuery, nulInPath, surrogateInBody, ordinary] = await Promise.all([
      ctx.as(tenant.test).get('/v1/investors?limit=5&status=a%00b&na%00me=x'),
      ctx.as(tenant.test).get('/v1/investors/inv%00x'),
      ctx
        .http()
        .post('/v1/investors')
        .set('Authorization', auth)
        .set('Content-Type', 'application/json')
        .send('{"\\ud800": "\\udc00", "email": "x\\u0000\\udbff"}'),
      ctx.as(tenant.test).get('/v1/webhooks?limit=3'),
    ]);
    const queryLog = await logOf(nulInQuery.headers['request-id']);
    expect(queryLog.query).toEqual({ limit: '5', status: 'a\ufffdb', 'na\ufffdme': '[redacted]' });
    const pathLog = await logOf(nulInPath.headers['request-id']);
    expect(pathLog).toMatchObject({ path: '/v1/investors/inv%00x', status: nulInPath.status });
    const bodyLog = await logOf(surrogateInBody.headers['request-id']);
    expect(bodyLog.status).toBe(surrogateInBody.status);
    expect(bodyLog.error).toEqual(surrogateInBody.body.error);
    const ordinaryLog = await logOf(ordinary.headers['request-id']);
    expect(ordinaryLog).toMatchObject({
      path: '/v1/webhooks',
      query: { limit: '3' },
      status: ordinary.status,
    });
  });

  it('keeps tenants and modes apart', async () => {
    await logOf(failedId);
    expect((await ctx.as(other.test).get(`/v1/request-logs/${failedId}`)).status).toBe(404);
    expect((await ctx.as(tenant.live).get(`/v1/request-logs/${failedId}`)).status).toBe(404);
    const otherList = await ctx.as(other.test).get('/v1/request-logs?limit=100');
    expect(otherList.body.data.map((l: RequestLog) => l.id)).not.toContain(failedId);
    const live = await ctx.as(tenant.live).get('/v1/webhooks');
    const liveLog = await logOf(live.headers['request-id'], tenant.live);
    expect(liveLog.livemode).toBe(true);
    const testList = await ctx.as(tenant.test).get('/v1/request-logs?limit=100');
    expect(testList.body.data.map((l: RequestLog) => l.id)).not.toContain(liveLog.id);
    expect(testList.body.data.every((l: RequestLog) => l.livemode === false)).toBe(true);
  });

  it('purges rows past the retention period with a job on the scheduler, keeping recent ones', async () => {
    await logOf(okId);
    const oldId = 'req_old0000000000000000000';
    if (!isRemote) {
      await ctx.dataSource.query(
        `INSERT INTO "request_logs" ("id", "tenant_id", "livemode", "method", "path", "status", "duration_ms", "created_at")
       VALUES ($1, $2, false, 'GET', '/v1/webhooks', 200, 1, now() - interval '31 days')`,
        [oldId, tenant.tenantId],
      );
      const deadline = Date.now() + 10_000;
      while (
        (
          await ctx.dataSource.query(
            `SELECT 1 FROM "scheduled_jobs" WHERE "tenant_id" = $1 AND "kind" = 'request_logs.purge' AND NOT "livemode"`,
            [tenant.tenantId],
          )
        ).length === 0
      ) {
        expect(Date.now()).toBeLessThan(deadline);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    // Moving the test clock past the purge runs it; what it erases is decided by real time, so
    // the requests just made are kept.
    const moved = await ctx.as(tenant.test).post('/v1/test_helpers/clock', { advance_seconds: 2 * 86400 });
    expect(moved.status).toBe(200);
    expect((await ctx.as(tenant.test).get(`/v1/request-logs/${okId}`)).status).toBe(200);
    expect((await ctx.as(tenant.test).get(`/v1/request-logs/${oldId}`)).status).toBe(404);
    if (!isRemote) {
      const left: Array<{ id: string }> = await ctx.dataSource.query(
        `SELECT "id" FROM "request_logs" WHERE "tenant_id" = $1 AND "id" IN ($2, $3)`,
        [tenant.tenantId, oldId, okId],
      );
      expect(left.map((r) => r.id)).toEqual([okId]);
    }
  });

  /** One refused investor creation and one list read, their request ids and what the refusal answered. */
  async function logOneRefusalAndOneRead(): Promise<void> {
    const failed = await refusedCreate();
    expect(failed.status).toBeGreaterThanOrEqual(400);
    expect(failed.status).toBeLessThan(500);
    failedId = failed.headers['request-id'];
    failedBody = failed.body;
    failedStatus = failed.status;
    const ok = await ctx.as(tenant.test).get(`/v1/investors?limit=5&email=${encodeURIComponent(EMAIL)}`);
    expect(ok.status).toBe(200);
    okId = ok.headers['request-id'];
  }

  /** An investor creation the API refuses, always under the same idempotency key. */
  const refusedCreate = () =>
    ctx
      .as(tenant.test)
      .post(
        '/v1/investors',
        { email: EMAIL, first_name: NAME, last_name: NAME, date_of_birth: 'not a date' },
        'request-log-test-key-0001',
      );

  /** Polls until the request's log row is readable (it is written off the request path). */
  async function logOf(requestId: string, creds = tenant.test): Promise<RequestLog> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const res = await ctx.as(creds).get(`/v1/request-logs/${requestId}`);
      if (res.status === 200) {
        // Written after its request was answered, so no change mark: listings (which may read a
        // replica) show the row once the replicas have it.
        await replicasCaughtUp();
        return res.body as RequestLog;
      }
      expect(res.status).toBe(404);
      if (Date.now() > deadline) {
        throw new Error(`request ${requestId} never appeared in the request log`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
});

interface RequestLog {
  id: string;
  status: number;
  method: string;
  path: string;
  query: Record<string, string> | null;
  error: Record<string, unknown> | null;
  error_code: string | null;
  idempotency_key: string | null;
  idempotent_replayed: boolean;
  legacy: boolean;
  api_key_id: string | null;
  livemode: boolean;
}

/** Personal data and secrets sent in these requests; none may reach a stored row. */
const EMAIL = 'ada.lovelace.private@example.com';
const NAME = 'Augusta-Secretname';
