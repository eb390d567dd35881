import { createTestContext, isRemote, TestContext, TestTenant } from '../support/app';
import { expectSvcError } from '../support/errors';
import { createInvestor, investorKey } from '../investors/fixtures';
import { activeInvestor, fundingBody, linkBankAccount } from './support/wallet';

describe('Funding sources', () => {
  let ctx: TestContext;
  let tenant: TestTenant;

  beforeAll(async () => {
    ctx = await createTestContext();
    tenant = await ctx.createTenant();
  });

  afterAll(() => ctx?.close());

  it('links a bank account: the number is masked, the record is verified at once, created on the clock', async () => {
    const investor = await createInvestor(ctx, tenant.test);
    const frozen = new Date(Math.ceil((Date.now() + 20 * 86_400_000) / 1000) * 1000);
    await client().post('/v1/test_helpers/clock', { frozen_time: frozen.toISOString() });
    const res = await client().post(`/v1/investors/${investor.id}/funding-sources`, {
      ...US,
      metadata: { nickname: 'salary' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^fs_[A-Za-z0-9_-]{22}$/),
      object: 'funding_source',
      created: frozen.getTime() / 1000,
      livemode: false,
      metadata: { nickname: 'salary' },
      investor_id: investor.id,
      type: 'bank_account',
      account_holder_name: 'Ada Obi',
      account_number_last4: '6789',
      routing_number: '110000000',
      bank_code: null,
      currency: 'USD',
      country: 'US',
      status: 'verified',
    });
    expect(JSON.stringify(res.body)).not.toContain('000123456789');
    const abroad = await client().post(`/v1/investors/${investor.id}/funding-sources`, {
      type: 'bank_account',
      account_holder_name: 'Ada Obi',
      account_number: 'NG0123456789',
      bank_code: 'GTBINGLA',
      currency: 'ngn',
      country: 'ng',
    });
    expect(abroad.body).toMatchObject({
      currency: 'NGN',
      country: 'NG',
      bank_code: 'GTBINGLA',
      routing_number: null,
    });

    const list = await client().get(`/v1/investors/${investor.id}/funding-sources`);
    expect(list.body).toMatchObject({
      object: 'list',
      url: `/v1/investors/${investor.id}/funding-sources`,
      has_more: false,
    });
    // Made at the same frozen instant: newest first cannot tell them apart, so they list by id.
    expect(list.body.data.map((f: { id: string }) => f.id)).toEqual(
      [abroad.body.id, res.body.id].sort().reverse(),
    );
    expect((await client().get(`/v1/investors/${investor.id}/funding-sources/${res.body.id}`)).body).toEqual(
      res.body,
    );
  });

  it('removing one keeps transfers already made and refuses new ones', async () => {
    const investor = await activeInvestor(ctx, tenant.test);
    const bank = await linkBankAccount(ctx, tenant.test, investor.id);
    const deposit = await client().post(
      `/v1/wallet/accounts/${investor.account_id}/funding`,
      fundingBody(bank.id, '10.00'),
    );
    const removed = await client().delete(`/v1/investors/${investor.id}/funding-sources/${bank.id}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ id: bank.id, object: 'funding_source', deleted: true, livemode: false });
    expectSvcError(
      await client().get(`/v1/investors/${investor.id}/funding-sources/${bank.id}`),
      'SVC-404-001',
    );
    expectSvcError(
      await client().delete(`/v1/investors/${investor.id}/funding-sources/${bank.id}`),
      'SVC-404-001',
    );
    expect((await client().get(`/v1/investors/${investor.id}/funding-sources`)).body.data).toEqual([]);
    expectSvcError(
      await client().post(
        `/v1/wallet/accounts/${investor.account_id}/funding`,
        fundingBody(bank.id, '10.00'),
      ),
      'SVC-400-001',
      { param: 'funding_details.bank_account_id' },
    );
    const settled = await client().post(
      `/v1/test_helpers/wallet/transactions/${deposit.body.transaction_id}/settle`,
    );
    expect(settled.body.status).toBe('settled');
  });

  it.each([
    [{ routing_number: undefined }, 'SVC-400-002', 'routing_number'],
    [{ routing_number: '110000001' }, 'SVC-400-001', 'routing_number'],
    [{ routing_number: '11000000' }, 'SVC-400-001', 'routing_number'],
    [{ bank_code: 'CHASUS33' }, 'SVC-400-001', 'bank_code'],
    [{ country: 'GB', routing_number: undefined }, 'SVC-400-002', 'bank_code'],
    [{ country: 'GB', bank_code: '040004' }, 'SVC-400-001', 'routing_number'],
    [{ country: 'XX' }, 'SVC-400-001', 'country'],
    [{ country: 'USA' }, 'SVC-400-001', 'country'],
    [{ currency: 'XYZ' }, 'SVC-400-001', 'currency'],
    [{ currency: 12 }, 'SVC-400-001', 'currency'],
    [{ account_number: '12' }, 'SVC-400-001', 'account_number'],
    [{ account_number: '0001-2345' }, 'SVC-400-001', 'account_number'],
    [{ account_number: 123456789 }, 'SVC-400-001', 'account_number'],
    [{ account_holder_name: '' }, 'SVC-400-001', 'account_holder_name'],
    [{ type: 'card' }, 'SVC-400-001', 'type'],
    [{ iban: 'x' }, 'SVC-400-001', 'iban'],
    [{ metadata: { a: 1 } }, 'SVC-400-001', 'metadata'],
  ] as const)('refuses %j with %s naming %s', async (change, code, param) => {
    const investor = await createInvestor(ctx, tenant.test);
    expectSvcError(
      await client().post(`/v1/investors/${investor.id}/funding-sources`, { ...US, ...change }),
      code,
      { param },
    );
    expect((await client().get(`/v1/investors/${investor.id}/funding-sources`)).body.data).toEqual([]);
  });

  it('belongs to its investor: other investors, tenants and modes see nothing', async () => {
    const investor = await createInvestor(ctx, tenant.test);
    const other = await createInvestor(ctx, tenant.test);
    const bank = await linkBankAccount(ctx, tenant.test, investor.id);
    const key = await investorKey(ctx, tenant.test, investor.id);
    expect((await ctx.as(key).get(`/v1/investors/${investor.id}/funding-sources/${bank.id}`)).status).toBe(
      200,
    );
    expectSvcError(await ctx.as(key).get(`/v1/investors/${other.id}/funding-sources`), 'SVC-404-001');
    expectSvcError(await client().get(`/v1/investors/${other.id}/funding-sources/${bank.id}`), 'SVC-404-001');
    expectSvcError(
      await ctx.as(tenant.live).get(`/v1/investors/${investor.id}/funding-sources/${bank.id}`),
      'SVC-404-001',
    );
    const stranger = await ctx.createTenant();
    expectSvcError(
      await ctx.as(stranger.test).get(`/v1/investors/${investor.id}/funding-sources`),
      'SVC-404-001',
    );
    expectSvcError(
      await ctx.as(stranger.test).post(`/v1/investors/${investor.id}/funding-sources`, US),
      'SVC-404-001',
    );
    expectSvcError(
      await client().get(`/v1/investors/${investor.id}/funding-sources/not-an-id`),
      'SVC-404-001',
    );
  });

  it('the account number is stored encrypted and answered masked', async () => {
    const investor = await createInvestor(ctx, tenant.test);
    const res = await client().post(`/v1/investors/${investor.id}/funding-sources`, {
      ...US,
      account_number: '987654321012',
    });
    expect(res.status).toBe(201);
    // Every answer that shows the source, its listing included, carries the last four digits only.
    const answers = [
      res.body,
      (await client().get(`/v1/investors/${investor.id}/funding-sources/${res.body.id}`)).body,
      (await client().get(`/v1/investors/${investor.id}/funding-sources`)).body,
    ];
    expect(answers[1]).toMatchObject({ id: res.body.id, account_number_last4: '1012' });
    for (const answer of answers) {
      expect(JSON.stringify(answer)).not.toContain('987654321012');
    }
    if (!isRemote) {
      const [row] = await ctx.dataSource.query('SELECT * FROM funding_sources WHERE id = $1', [res.body.id]);
      expect(JSON.stringify(row)).not.toContain('987654321012');
      expect(row.account_number).toMatch(/^v1:/);
      expect(row.account_number_last4).toBe('1012');
    }
  });

  const client = () => ctx.as(tenant.test);
  const US = {
    type: 'bank_account',
    account_holder_name: 'Ada Obi',
    account_number: '000123456789',
    routing_number: '110000000',
    currency: 'USD',
    country: 'US',
  };
});
