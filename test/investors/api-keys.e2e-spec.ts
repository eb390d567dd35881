import { createTestContext, TestContext, TestTenant } from '../support/app';
import { expectSvcError } from '../support/errors';
import { createInvestor, investorKey, useTempStorage } from './fixtures';

describe('API keys', () => {
  useTempStorage();
  let ctx: TestContext;
  let tenant: TestTenant;

  beforeAll(async () => {
    ctx = await createTestContext();
    tenant = await ctx.createTenant();
  });

  afterAll(() => ctx?.close());

  it('creates an investor-scoped key whose secret is shown once; the key works at once, scoped to its investor', async () => {
    const investor = await createInvestor(ctx, tenant.test);
    const other = await createInvestor(ctx, tenant.test);
    const res = await ctx.as(tenant.test).post(keysOf(investor.id), {
      name: 'Mobile app',
      expires_at: '2999-01-01T00:00:00Z',
      metadata: { device: 'ios' },
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual([...RECORD_KEYS, 'secret']);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^apk_[A-Za-z0-9_-]{22}$/),
      object: 'api_key',
      created: expect.any(Number),
      livemode: false,
      account_id: investor.id,
      name: 'Mobile app',
      environment: 'TEST',
      status: 'active',
      public_key: expect.stringMatching(/^pk_test_/),
      expires_at: '2999-01-01T00:00:00.000Z',
      metadata: { device: 'ios' },
      secret: expect.stringMatching(/^sk_test_/),
    });
    const creds = { id: res.body.id, publicKey: res.body.public_key, secret: res.body.secret };
    expect((await ctx.as(creds).get(`/v1/investors/${investor.id}`)).body.id).toBe(investor.id);
    expectSvcError(await ctx.as(creds).get(`/v1/investors/${other.id}`), 'SVC-404-001');

    const { secret: _secret, ...record } = res.body;
    const one = await ctx.as(tenant.test).get(`${keysOf(investor.id)}/${res.body.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(record);
    const list = await ctx.as(tenant.test).get(keysOf(investor.id));
    expect(list.body).toEqual({ object: 'list', url: keysOf(investor.id), has_more: false, data: [record] });
    expect(JSON.stringify(list.body)).not.toContain(res.body.secret);
  });

  it('a live key issues PRODUCTION keys for live investors; modes never see each other’s keys', async () => {
    const live = await createInvestor(ctx, tenant.live);
    const res = await ctx.as(tenant.live).post(keysOf(live.id), { name: 'live app' });
    expect(res.body).toMatchObject({
      livemode: true,
      environment: 'PRODUCTION',
      public_key: expect.stringMatching(/^pk_live_/),
    });
    expectSvcError(await ctx.as(tenant.test).get(keysOf(live.id)), 'SVC-404-001');
    expectSvcError(await ctx.as(tenant.test).get(`${keysOf(live.id)}/${res.body.id}`), 'SVC-404-001');
    expectSvcError(await ctx.as(tenant.test).post(`${keysOf(live.id)}/${res.body.id}/revoke`), 'SVC-404-001');
  });

  it('revoking returns the record with status revoked and the key stops at once', async () => {
    const investor = await createInvestor(ctx, tenant.test);
    const key = await investorKey(ctx, tenant.test, investor.id);
    expect((await ctx.as(key).get('/v1/accounts')).status).toBe(200);
    const res = await ctx.as(tenant.test).post(`${keysOf(investor.id)}/${key.id}/revoke`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(RECORD_KEYS);
    expect(res.body).toMatchObject({
      id: key.id,
      object: 'api_key',
      status: 'revoked',
      account_id: investor.id,
    });
    expectSvcError(await ctx.as(key).get('/v1/accounts'), 'SVC-401-001');
    const again = await ctx.as(tenant.test).post(`${keysOf(investor.id)}/${key.id}/revoke`);
    expect(again.body).toEqual(res.body);
    expect((await ctx.as(tenant.test).get(`${keysOf(investor.id)}/${key.id}`)).body.status).toBe('revoked');
  });

  it('a key past expires_at is listed as expired and no longer authenticates', async () => {
    const investor = await createInvestor(ctx, tenant.test);
    const res = await ctx.as(tenant.test).post(keysOf(investor.id), {
      expires_at: new Date(Date.now() + 1500).toISOString(),
    });
    expect(res.body).toMatchObject({ status: 'active', name: '' });
    const creds = { id: res.body.id, publicKey: res.body.public_key, secret: res.body.secret };
    expect((await ctx.as(creds).get('/v1/accounts')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1600));
    expect((await ctx.as(tenant.test).get(`${keysOf(investor.id)}/${res.body.id}`)).body.status).toBe(
      'expired',
    );
    expectSvcError(await ctx.as(creds).get('/v1/accounts'), 'SVC-401-001');
  });

  it('validates creation input', async () => {
    const investor = await createInvestor(ctx, tenant.test);
    expectSvcError(
      await ctx.as(tenant.test).post(keysOf(investor.id), { expires_at: '2020-01-01T00:00:00Z' }),
      'SVC-400-001',
      {
        param: 'expires_at',
      },
    );
    expectSvcError(
      await ctx.as(tenant.test).post(keysOf(investor.id), { expires_at: 'tomorrow' }),
      'SVC-400-001',
      {
        param: 'expires_at',
      },
    );
    expectSvcError(await ctx.as(tenant.test).post(keysOf(investor.id), { name: '' }), 'SVC-400-001', {
      param: 'name',
    });
    expectSvcError(await ctx.as(tenant.test).post(keysOf(investor.id), { scopes: ['all'] }), 'SVC-400-001', {
      param: 'scopes',
    });
    expectSvcError(await ctx.as(tenant.test).post(keysOf('inv_AAAAAAAAAAAAAAAAAAAAAA'), {}), 'SVC-404-001');
    expectSvcError(
      await ctx.as(tenant.test).get(`${keysOf(investor.id)}/apk_AAAAAAAAAAAAAAAAAAAAAA`),
      'SVC-404-001',
    );
    expectSvcError(await ctx.as(tenant.test).post(`${keysOf(investor.id)}/nope/revoke`), 'SVC-404-001');
    await ctx.as(tenant.test).post(`/v1/accounts/${investor.account_id}/actions/close`);
    expectSvcError(await ctx.as(tenant.test).post(keysOf(investor.id), {}), 'SVC-409-001');
  });

  it('an investor key may list, read and revoke its own keys, but not issue keys nor touch another investor’s (403)', async () => {
    const mine = await createInvestor(ctx, tenant.test);
    const other = await createInvestor(ctx, tenant.test);
    const key = await investorKey(ctx, tenant.test, mine.id);
    const spare = await investorKey(ctx, tenant.test, mine.id);
    const othersKey = await investorKey(ctx, tenant.test, other.id);

    const list = await ctx.as(key).get(keysOf(mine.id));
    expect(list.body.data.map((k: { id: string }) => k.id)).toEqual([spare.id, key.id]);
    expect((await ctx.as(key).get(`${keysOf(mine.id)}/${spare.id}`)).body.status).toBe('active');
    expectSvcError(await ctx.as(key).post(keysOf(mine.id), { name: 'more' }), 'SVC-403-001');
    expectSvcError(await ctx.as(key).get(keysOf(other.id)), 'SVC-403-001');
    expectSvcError(await ctx.as(key).get(`${keysOf(other.id)}/${othersKey.id}`), 'SVC-403-001');
    expectSvcError(await ctx.as(key).post(`${keysOf(other.id)}/${othersKey.id}/revoke`), 'SVC-403-001');
    // Another investor's key under one's own investor id is simply not there.
    expectSvcError(await ctx.as(key).get(`${keysOf(mine.id)}/${othersKey.id}`), 'SVC-404-001');
    expect((await ctx.as(key).post(`${keysOf(mine.id)}/${spare.id}/revoke`)).body.status).toBe('revoked');
    expectSvcError(await ctx.as(spare).get('/v1/accounts'), 'SVC-401-001');
    expect((await ctx.as(othersKey).get('/v1/accounts')).status).toBe(200);
  });

  it('lists with cursor pagination, newest first', async () => {
    const investor = await createInvestor(ctx, tenant.test);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await investorKey(ctx, tenant.test, investor.id)).id);
    }
    const page = await ctx.as(tenant.test).get(`${keysOf(investor.id)}?limit=2`);
    expect(page.body.has_more).toBe(true);
    expect(page.body.data.map((k: { id: string }) => k.id)).toEqual([ids[2], ids[1]]);
    const next = await ctx.as(tenant.test).get(`${keysOf(investor.id)}?limit=2&starting_after=${ids[1]}`);
    expect(next.body.data.map((k: { id: string }) => k.id)).toEqual([ids[0]]);
    const newer = await ctx.as(tenant.test).get(`${keysOf(investor.id)}?ending_before=${ids[0]}`);
    expect(newer.body.data.map((k: { id: string }) => k.id)).toEqual([ids[2], ids[1]]);
  });

  const keysOf = (investorId: string) => `/v1/investors/${investorId}/api-keys`;
});

const RECORD_KEYS = [
  'id',
  'object',
  'created',
  'livemode',
  'account_id',
  'name',
  'environment',
  'status',
  'public_key',
  'expires_at',
  'metadata',
];
