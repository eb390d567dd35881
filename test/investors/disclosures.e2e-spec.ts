import { basic, createTestContext, TestContext, TestCredentials, TestTenant } from '../support/app';
import { expectSvcError } from '../support/errors';
import { createInvestor, eventsOf, investorKey, useTempStorage } from './fixtures';

describe('Disclosures', () => {
  useTempStorage();
  let ctx: TestContext;
  let tenant: TestTenant;

  beforeAll(async () => {
    ctx = await createTestContext();
    tenant = await ctx.createTenant();
  });

  afterAll(() => ctx?.close());

  const accept = (creds: TestCredentials, investorId: string, agreements: object[]) =>
    ctx.as(creds).post(`/v1/investors/${investorId}/agreements`, { agreements });

  it('GET /v1/disclosures lists every regulatory document at its current revision', async () => {
    const res = await ctx.as(tenant.test).get('/v1/disclosures');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'list', url: '/v1/disclosures', has_more: false });
    expect(
      res.body.data.map((d: { agreement: string; revision: string; required_for: string[] }) => [
        d.agreement,
        d.revision,
        d.required_for,
      ]),
    ).toEqual([
      ['customer_agreement', '2025-06', ['account']],
      ['data_sharing_consent', '2025-01', []],
      ['margin_agreement', '2024-10', ['margin_trading']],
      ['crypto_agreement', '2025-03', ['crypto']],
      ['options_agreement', '2024-04', ['options']],
    ]);
    expect(res.body.data[0]).toEqual({
      object: 'disclosure',
      livemode: false,
      agreement: 'customer_agreement',
      title: 'Customer Agreement',
      description: expect.any(String),
      revision: '2025-06',
      effective_date: '2025-06-01',
      required_for: ['account'],
    });
    expect((await ctx.as(tenant.live).get('/v1/disclosures')).body.data[0].livemode).toBe(true);
  });

  it('accepting records agreements on the account with ip, time and revision, emitting account.updated', async () => {
    const own = await ctx.createTenant();
    const investor = await createInvestor(ctx, own.test);
    const res = await accept(own.test, investor.id, [
      {
        agreement: 'customer_agreement',
        revision: '2025-06',
        ip_address: '203.0.113.7',
        signed_at: '2025-11-20T10:15:00Z',
      },
      { agreement: 'crypto_agreement', revision: '2025-03', ip_address: '2001:db8::7' },
    ]);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      object: 'list',
      url: `/v1/investors/${investor.id}/agreements`,
      has_more: false,
    });
    expect(res.body.data).toEqual([
      {
        object: 'agreement',
        livemode: false,
        investor_id: investor.id,
        account_id: investor.account_id,
        agreement: 'customer_agreement',
        revision: '2025-06',
        signed_at: '2025-11-20T10:15:00.000Z',
        ip_address: '203.0.113.7',
      },
      {
        object: 'agreement',
        livemode: false,
        investor_id: investor.id,
        account_id: investor.account_id,
        agreement: 'crypto_agreement',
        revision: '2025-03',
        signed_at: expect.any(String),
        ip_address: '2001:db8::7',
      },
    ]);
    expect(Math.abs(Date.parse(res.body.data[1].signed_at) - Date.now())).toBeLessThan(60_000);
    const account = await ctx.as(own.test).get(`/v1/accounts/${investor.account_id}`);
    expect(account.body.agreements).toEqual([
      {
        agreement: 'customer_agreement',
        signed_at: '2025-11-20T10:15:00.000Z',
        ip_address: '203.0.113.7',
        revision: '2025-06',
        account_id: investor.account_id,
      },
      {
        agreement: 'crypto_agreement',
        signed_at: res.body.data[1].signed_at,
        ip_address: '2001:db8::7',
        revision: '2025-03',
        account_id: investor.account_id,
      },
    ]);
    expect((await ctx.as(own.test).get(`/v1/investors/${investor.id}`)).body.kyc.missing).toEqual([
      'identity_document',
    ]);
    expect((await ctx.as(own.test).get(`/v1/investors/${investor.id}/agreements`)).body.data).toEqual(
      res.body.data,
    );

    const updates = (await eventsOf(ctx, own)).filter((e) => e.event === 'account.updated');
    expect(updates).toHaveLength(1);
    expect(updates[0].data).toMatchObject({ changed: ['agreements'], investor_id: investor.id });
    expect(updates[0].data.agreements).toHaveLength(2);

    // Accepting the same revision again keeps the first record and emits nothing.
    const again = await accept(own.test, investor.id, [
      { agreement: 'customer_agreement', revision: '2025-06', ip_address: '198.51.100.1' },
    ]);
    expect(again.body.data).toEqual(res.body.data);
    expect((await eventsOf(ctx, own)).filter((e) => e.event === 'account.updated')).toHaveLength(1);

    // With the crypto agreement accepted, crypto can now be enabled.
    const crypto = await ctx
      .http()
      .patch(`/v1/investors/${investor.id}`)
      .set('Authorization', basic(own.test))
      .send({ enabled_assets: ['us_equity', 'crypto'] });
    expect(crypto.body.enabled_assets).toEqual(['us_equity', 'crypto']);
  });

  it('refuses unknown agreements, stale revisions, duplicates, bad addresses and future times, naming the field', async () => {
    const investor = await createInvestor(ctx, tenant.test);
    const good = { agreement: 'customer_agreement', revision: '2025-06', ip_address: '203.0.113.7' };
    const cases: Array<[object, 'SVC-400-001' | 'SVC-400-002', string]> = [
      [{ ...good, revision: '2024-01' }, 'SVC-400-001', 'agreements[0].revision'],
      [{ ...good, agreement: 'terms' }, 'SVC-400-001', 'agreements[0].agreement'],
      [{ ...good, ip_address: 'localhost' }, 'SVC-400-001', 'agreements[0].ip_address'],
      [{ ...good, signed_at: 'yesterday' }, 'SVC-400-001', 'agreements[0].signed_at'],
      [{ ...good, signed_at: '2999-01-01T00:00:00Z' }, 'SVC-400-001', 'agreements[0].signed_at'],
      [
        { agreement: 'customer_agreement', ip_address: '203.0.113.7' },
        'SVC-400-002',
        'agreements[0].revision',
      ],
    ];
    for (const [item, code, param] of cases) {
      expectSvcError(await accept(tenant.test, investor.id, [item]), code, { param });
    }
    expectSvcError(await accept(tenant.test, investor.id, [good, good]), 'SVC-400-001', {
      param: 'agreements[1].agreement',
    });
    expectSvcError(await accept(tenant.test, investor.id, []), 'SVC-400-001', { param: 'agreements' });
    expectSvcError(
      await ctx.as(tenant.test).post(`/v1/investors/${investor.id}/agreements`, {}),
      'SVC-400-002',
      {
        param: 'agreements',
      },
    );
    expect((await ctx.as(tenant.test).get(`/v1/investors/${investor.id}/agreements`)).body.data).toEqual([]);
  });

  it('an investor key accepts for itself only; closed accounts accept nothing', async () => {
    const mine = await createInvestor(ctx, tenant.test);
    const other = await createInvestor(ctx, tenant.test);
    const key = await investorKey(ctx, tenant.test, mine.id);
    const item = { agreement: 'data_sharing_consent', revision: '2025-01', ip_address: '203.0.113.7' };
    expect((await accept(key, mine.id, [item])).status).toBe(200);
    expectSvcError(await accept(key, other.id, [item]), 'SVC-404-001');
    expectSvcError(await accept(tenant.live, mine.id, [item]), 'SVC-404-001');
    await ctx.as(tenant.test).post(`/v1/accounts/${mine.account_id}/actions/close`);
    expectSvcError(
      await accept(tenant.test, mine.id, [{ ...item, agreement: 'customer_agreement', revision: '2025-06' }]),
      'SVC-409-001',
    );
  });
});
