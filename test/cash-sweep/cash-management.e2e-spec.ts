import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { basic, TestTenant, useTenant, useTestContext } from '../support/app';
import { expectSvcError } from '../support/errors';
import { createInvestor, investorKey } from '../investors/fixtures';
import { fundedAccount } from '../wallet/support/wallet';
import { LEGACY_403 } from './support';

/** docs/decisions.md, Cash sweep and the Cash Management add-on; spec, Entitlements. */
describe('Cash Management add-on', () => {
  const ctx = useTestContext();
  const tenant = useTenant(ctx, { products: ['cash_management'] });
  const without = useTenant(ctx);
  beforeAll(async () => {
    await ctx.as(tenant.test).post('/v1/test_helpers/clock', { frozen_time: '2049-05-03T14:00:00Z' });
  });
  const operations = cashManagementOperations();

  it('documents the routes docs/decisions.md names', () => {
    expect(operations.map(([m, p]) => `${m} ${p.replace(/0{8}-[-0-9]+/g, '{id}')}`).sort()).toEqual([
      'get /v1/cash-management/accounts/{id}/enrollment',
      'get /v1/cash-management/apr-tiers',
      'get /v1/cash-management/apr-tiers/{id}',
      'get /v1/cash-management/payouts',
      'get /v1/cash-management/summary',
      'patch /v1/cash-management/apr-tiers/{id}',
      'post /v1/cash-management/apr-tiers',
      'post /v1/cash-management/apr-tiers/{id}/retire',
      'put /v1/cash-management/accounts/{id}/enrollment',
    ]);
  });

  it.each(operations)('%s %s answers the legacy 403 when the add-on is off', async (method, path) => {
    for (const creds of [without.test, without.live]) {
      const res = await send(creds, method, path);
      expect([res.status, res.body]).toEqual([403, LEGACY_403]);
    }
  });

  it('a path not documented under /cash-management also answers the legacy 403 when off', async () => {
    const res = await send(without.test, 'get', '/v1/cash-management/nothing/here');
    expect([res.status, res.body]).toEqual([403, LEGACY_403]);
  });

  it.each(operations)('%s %s refuses investor-scoped keys (403 SVC-403-001)', async (method, path) => {
    const investor = await createInvestor(ctx, tenant.test);
    const key = await investorKey(ctx, tenant.test, investor.id);
    expectSvcError(await send(key, method, path), 'SVC-403-001');
  });

  it('tiers: the standard default, create, get, update, make default, retire (accounts move to the default)', async () => {
    const list = await client().get('/v1/cash-management/apr-tiers');
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({
      object: 'list',
      url: '/v1/cash-management/apr-tiers',
      has_more: false,
    });
    expect(list.body.data).toEqual([
      expect.objectContaining({
        object: 'apr_tier',
        name: 'standard',
        currency: 'USD',
        account_rate_bps: 350,
        correspondent_rate_bps: 50,
        is_default: true,
        status: 'active',
      }),
    ]);
    const standard = list.body.data[0];

    const created = await client().post('/v1/cash-management/apr-tiers', {
      name: 'premium',
      account_rate_bps: 425,
      correspondent_rate_bps: 25,
      metadata: { segment: 'vip' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^apr_[A-Za-z0-9_-]{22}$/),
      object: 'apr_tier',
      created: Date.parse('2049-05-03T14:00:00Z') / 1000,
      livemode: false,
      metadata: { segment: 'vip' },
      name: 'premium',
      currency: 'USD',
      account_rate_bps: 425,
      correspondent_rate_bps: 25,
      is_default: false,
      status: 'active',
    });
    const tierId = created.body.id as string;
    expect((await client().get(`/v1/cash-management/apr-tiers/${tierId}`)).body).toEqual(created.body);

    expectSvcError(
      await client().post('/v1/cash-management/apr-tiers', { name: 'PREMIUM', account_rate_bps: 1 }),
      'SVC-400-001',
      {
        param: 'name',
      },
    );
    expectSvcError(
      await client().post('/v1/cash-management/apr-tiers', {
        name: 'x',
        account_rate_bps: 9000,
        correspondent_rate_bps: 2000,
      }),
      'SVC-400-001',
      { param: 'account_rate_bps' },
    );
    expectSvcError(
      await client().post('/v1/cash-management/apr-tiers', { name: 'x', account_rate_bps: -1 }),
      'SVC-400-001',
      {
        param: 'account_rate_bps',
      },
    );
    expectSvcError(await client().post('/v1/cash-management/apr-tiers', { name: 'x' }), 'SVC-400-002', {
      param: 'account_rate_bps',
    });

    const patched = await call('patch', `/v1/cash-management/apr-tiers/${tierId}`, { account_rate_bps: 450 });
    expect(patched.body).toMatchObject({ account_rate_bps: 450, correspondent_rate_bps: 25 });

    // An account in premium; retiring premium moves it back to the default.
    const { investor } = await fundedAccount(ctx, tenant.test, '1000.00');
    const moved = await call('put', `/v1/cash-management/accounts/${investor.account_id}/enrollment`, {
      apr_tier_id: tierId,
    });
    expect(moved.body).toMatchObject({ status: 'enrolled', apr_tier_id: tierId, account_rate_bps: 450 });

    expectSvcError(await client().post(`/v1/cash-management/apr-tiers/${standard.id}/retire`), 'SVC-409-001');
    const retired = await client().post(`/v1/cash-management/apr-tiers/${tierId}/retire`);
    expect(retired.body).toMatchObject({ id: tierId, status: 'retired', is_default: false });
    expectSvcError(await client().post(`/v1/cash-management/apr-tiers/${tierId}/retire`), 'SVC-409-001');
    expectSvcError(
      await call('patch', `/v1/cash-management/apr-tiers/${tierId}`, { name: 'again' }),
      'SVC-409-001',
    );
    expect(
      (await client().get(`/v1/cash-management/accounts/${investor.account_id}/enrollment`)).body,
    ).toMatchObject({
      apr_tier_id: standard.id,
      apr_tier_name: 'standard',
    });

    // A new default: the previous one stops being default.
    const gold = await client().post('/v1/cash-management/apr-tiers', {
      name: 'gold',
      account_rate_bps: 300,
    });
    const made = await call('patch', `/v1/cash-management/apr-tiers/${gold.body.id}`, { is_default: true });
    expect(made.body.is_default).toBe(true);
    expect((await client().get(`/v1/cash-management/apr-tiers/${standard.id}`)).body.is_default).toBe(false);
    expect(
      (await client().get('/v1/cash-management/apr-tiers?status=retired')).body.data.map(
        (t: { id: string }) => t.id,
      ),
    ).toEqual([tierId]);
    const newcomer = await createInvestor(ctx, tenant.test);
    expect(
      (await client().get(`/v1/cash-management/accounts/${newcomer.account_id}/enrollment`)).body,
    ).toMatchObject({
      apr_tier_name: 'gold',
      accrual_start: '2049-05-03',
    });
  });

  it('enrollment: a tier change applies from the next day accrued; opting out stops accrual', async () => {
    const { investor } = await fundedAccount(ctx, tenant.test, '2000.00');
    const tier = await client().post('/v1/cash-management/apr-tiers', {
      name: 'high',
      account_rate_bps: 730,
    });
    const enrollment = `/v1/cash-management/accounts/${investor.account_id}/enrollment`;
    expect((await call('put', enrollment, { apr_tier_id: tier.body.id })).status).toBe(200);
    await client().post('/v1/test_helpers/clock', { frozen_time: '2049-05-05T14:00:00Z' });
    const history = await client().get(`/v1/investors/${investor.id}/cash-sweep/interest`);
    // 2000 × 730 / 10000 / 365 = 0.40 a day, exactly.
    expect(
      history.body.data.map((e: Record<string, unknown>) => [
        e.date,
        e.apr_tier_name,
        e.account_accrued_interest,
      ]),
    ).toEqual([
      ['2049-05-03', 'high', '0.40000000'],
      ['2049-05-04', 'high', '0.40000000'],
    ]);

    const out = await call('put', enrollment, { opted_out: true });
    expect(out.body).toMatchObject({ status: 'opted_out', apr_tier_id: null, account_rate_bps: null });
    await client().post('/v1/test_helpers/clock', { frozen_time: '2049-05-07T14:00:00Z' });
    expect((await client().get(`/v1/investors/${investor.id}/cash-sweep/interest`)).body.data).toHaveLength(
      2,
    );

    const back = await call('put', enrollment, { apr_tier_id: tier.body.id });
    expect(back.body).toMatchObject({ status: 'enrolled', accrual_start: '2049-05-07' });

    for (const body of [
      {},
      { apr_tier_id: tier.body.id, opted_out: true },
      { apr_tier_id: 'apr_nope' },
      { opted_out: false },
    ]) {
      const res = await call('put', enrollment, body);
      expect([res.status, res.body.error?.param]).toEqual([
        400,
        body.opted_out === false ? 'opted_out' : 'apr_tier_id',
      ]);
    }
  });

  it('summary per currency and payouts after a month', async () => {
    const { investor } = await fundedAccount(ctx, tenant.test, '5000.00');
    await client().post('/v1/test_helpers/clock', { frozen_time: '2049-06-02T14:00:00Z' });
    const payouts = await client().get(`/v1/cash-management/payouts?account_id=${investor.account_id}`);
    expect(payouts.status).toBe(200);
    expect(payouts.body).toMatchObject({
      object: 'list',
      url: '/v1/cash-management/payouts',
      has_more: false,
    });
    expect(payouts.body.data).toEqual([
      expect.objectContaining({
        object: 'interest_payout',
        account_id: investor.account_id,
        month: '2049-05',
        currency: 'USD',
      }),
    ]);
    const all = await client().get('/v1/cash-management/payouts?limit=1');
    expect(all.body.has_more).toBe(true);
    const rest = await client().get(
      `/v1/cash-management/payouts?limit=100&starting_after=${all.body.data[0].id}`,
    );
    expect(rest.body.data.map((p: { id: string }) => p.id)).not.toContain(all.body.data[0].id);
    expectSvcError(
      await client().get('/v1/cash-management/payouts?starting_after=ipay_nope'),
      'SVC-400-001',
      {
        param: 'starting_after',
      },
    );

    const summary = await client().get('/v1/cash-management/summary');
    expect(summary.status).toBe(200);
    expect(summary.body.data).toEqual([
      {
        object: 'cash_sweep_summary',
        livemode: false,
        currency: 'USD',
        enrolled_accounts: expect.any(Number),
        as_of: '2049-06-01',
        swept_cash: expect.stringMatching(/^\d+\.\d{2}$/),
        accrued_this_month: expect.stringMatching(/^\d+\.\d{8}$/),
        correspondent_fees_this_month: expect.stringMatching(/^\d+\.\d{8}$/),
        paid_this_year: expect.stringMatching(/^\d+\.\d{2}$/),
      },
    ]);
    expect(Number(summary.body.data[0].paid_this_year)).toBeGreaterThan(0);
  });

  it('another tenant\u2019s tiers and accounts are not found', async () => {
    const other = await ctx.createTenant({ products: ['cash_management'] });
    const mine = await client().get('/v1/cash-management/apr-tiers');
    const tierId = mine.body.data[0].id;
    const investor = await createInvestor(ctx, tenant.test);
    const stranger = ctx.as(other.test);
    expectSvcError(await stranger.get(`/v1/cash-management/apr-tiers/${tierId}`), 'SVC-404-001');
    expectSvcError(await stranger.post(`/v1/cash-management/apr-tiers/${tierId}/retire`), 'SVC-404-001');
    expectSvcError(
      await stranger.get(`/v1/cash-management/accounts/${investor.account_id}/enrollment`),
      'SVC-404-001',
    );
    expectSvcError(
      await send(other.test, 'put', `/v1/cash-management/accounts/${investor.account_id}/enrollment`, {
        opted_out: true,
      }),
      'SVC-404-001',
    );
    // The live mode of the same tenant sees none of the test mode's tiers.
    expectSvcError(await ctx.as(tenant.live).get(`/v1/cash-management/apr-tiers/${tierId}`), 'SVC-404-001');
  });

  it('50 concurrent enrollment changes of one account all apply, one after the other', async () => {
    const investor = await createInvestor(ctx, tenant.test);
    const tier = await client().post('/v1/cash-management/apr-tiers', {
      name: 'race',
      account_rate_bps: 100,
    });
    const path = `/v1/cash-management/accounts/${investor.account_id}/enrollment`;
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        call('put', path, i % 2 ? { opted_out: true } : { apr_tier_id: tier.body.id }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(200));
    const final = (await client().get(path)).body;
    expect([
      { status: 'enrolled', apr_tier_id: tier.body.id },
      { status: 'opted_out', apr_tier_id: null },
    ]).toContainEqual({ status: final.status, apr_tier_id: final.apr_tier_id });
  });

  it('a tier list in an unsupported currency answers 400 naming currency', async () => {
    expectSvcError(await client().get('/v1/cash-management/apr-tiers?currency=XYZ'), 'SVC-400-001', {
      param: 'currency',
    });
  });

  const client = () => ctx.as(tenant.test);
  const send = (creds: TestTenant['test'], method: string, path: string, body: object = {}) =>
    (ctx.http() as any)[method](path).set('Authorization', basic(creds)).send(body);
  const call = (method: string, path: string, body: object) => send(tenant.test, method, path, body);
});

/** Every Cash Management operation of the committed OpenAPI document, with its path params filled. */
function cashManagementOperations(): Array<[string, string]> {
  const spec = load(readFileSync(join(__dirname, '..', '..', 'openapi', 'openapi.yaml'), 'utf8')) as {
    paths: Record<string, Record<string, unknown>>;
  };
  return Object.entries(spec.paths)
    .filter(([path]) => path.startsWith('/v1/cash-management/'))
    .flatMap(([path, ops]) =>
      Object.keys(ops)
        .filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
        .map((m): [string, string] => [
          m,
          path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000'),
        ]),
    );
}
