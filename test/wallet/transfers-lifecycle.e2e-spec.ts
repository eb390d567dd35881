import { basic, useTenant, useTestContext } from '../support/app';
import { madeBeforeAll } from '../support/made-before-all';
import { expectSvcError } from '../support/errors';
import {
  activeInvestor,
  balances,
  FAILING_ACCOUNT,
  fundingBody,
  linkBankAccount,
  partnerWebhook,
} from './support/wallet';

describe('Transfers: the lifecycle on the test clock, with every event at the partner’s webhook', () => {
  const ctx = useTestContext();
  const tenant = useTenant(ctx, { products: ['cash_management'] });
  beforeAll(() => payNoInterest());
  const webhook = madeBeforeAll('The partner webhook', () =>
    partnerWebhook(ctx, tenant.test, ['transfer.*']),
  );
  afterAll(() => webhook.stop());

  it('links a bank account, deposits, settles by moving the clock, withdraws and is refused above available cash', async () => {
    const t0 = await tradingDays();
    const at = (hours: number) => new Date(t0.getTime() + hours * HOUR * 1000).toISOString();
    expect((await move({ frozen_time: t0.toISOString() })).status).toBe(200);
    const investor = await activeInvestor(ctx, tenant.test);
    const bank = await linkBankAccount(ctx, tenant.test, investor.id);
    const wallet = `/v1/wallet/accounts/${investor.account_id}`;

    const deposit = await client().post(
      `${wallet}/funding`,
      fundingBody(bank.id, '500.00', { description: 'Initial funding', external_reference_id: 'partner-1' }),
    );
    expect(deposit.status).toBe(201);
    const record = {
      transaction_id: expect.stringMatching(/^txn_[A-Za-z0-9_-]{22}$/),
      account_id: investor.account_id,
      type: 'deposit',
      status: 'pending',
      amount: '500.00',
      currency: 'USD',
      funding_type: 'fiat',
      funding_details: {
        funding_type: 'fiat',
        fiat_currency: 'USD',
        bank_account_id: bank.id,
        method: 'ach',
      },
      description: 'Initial funding',
      external_reference_id: 'partner-1',
      fee: '0.00',
      net_amount: '500.00',
      created_at: t0.toISOString(),
      settled_at: null,
      failed_at: null,
      canceled_at: null,
      failure_reason: null,
      deposit_id: expect.stringMatching(/^dep_/),
      withdrawal_id: null,
    };
    expect(deposit.body).toEqual(record);
    const depositId = deposit.body.transaction_id as string;
    const initiated = await webhook.event('transfer.deposit.initiated', depositId);
    expect(initiated.data).toEqual({ ...deposit.body, investor_id: investor.id });
    expect(await balances(ctx, tenant.test, investor.account_id)).toEqual([
      {
        currency: 'USD',
        cash: '0.00',
        available: '0.00',
        pending_deposits: '500.00',
        withdrawal_holds: '0.00',
        order_holds: '0.00',
      },
    ]);

    await move({ advance_seconds: HOUR });
    expect((await txn(investor.account_id, depositId)).body.status).toBe('processing');
    await move({ advance_seconds: 24 * HOUR });
    const settled = await txn(investor.account_id, depositId);
    expect(settled.body).toEqual({ ...deposit.body, status: 'settled', settled_at: at(25) });
    const completed = await webhook.event('transfer.deposit.completed', depositId);
    expect(completed.data).toEqual({ ...settled.body, investor_id: investor.id });
    expect(await balances(ctx, tenant.test, investor.account_id)).toEqual([
      {
        currency: 'USD',
        cash: '500.00',
        available: '500.00',
        pending_deposits: '0.00',
        withdrawal_holds: '0.00',
        order_holds: '0.00',
      },
    ]);
    expect((await client().get(`/v1/accounts/${investor.account_id}`)).body.last_equity).toBe('500.00');

    const withdrawal = await client().post(`${wallet}/withdrawals`, fundingBody(bank.id, '200.00'));
    expect(withdrawal.status).toBe(201);
    expect(withdrawal.body).toMatchObject({
      type: 'withdrawal',
      status: 'pending',
      amount: '200.00',
      created_at: at(25),
    });
    expect(withdrawal.body.withdrawal_id).toMatch(/^wdr_/);
    const withdrawalId = withdrawal.body.transaction_id as string;
    await webhook.event('transfer.withdrawal.initiated', withdrawalId);
    expect(await balances(ctx, tenant.test, investor.account_id)).toEqual([
      {
        currency: 'USD',
        cash: '500.00',
        available: '300.00',
        pending_deposits: '0.00',
        withdrawal_holds: '200.00',
        order_holds: '0.00',
      },
    ]);
    expectSvcError(
      await client().post(`${wallet}/withdrawals`, fundingBody(bank.id, '300.01')),
      'SVC-422-002',
      {
        param: 'amount',
      },
    );

    await move({ advance_seconds: 25 * HOUR });
    expect((await txn(investor.account_id, withdrawalId)).body).toMatchObject({
      status: 'settled',
      settled_at: at(50),
    });
    await webhook.event('transfer.withdrawal.completed', withdrawalId);
    expect(await balances(ctx, tenant.test, investor.account_id)).toEqual([
      {
        currency: 'USD',
        cash: '300.00',
        available: '300.00',
        pending_deposits: '0.00',
        withdrawal_holds: '0.00',
        order_holds: '0.00',
      },
    ]);
    expect(webhook.eventsFor(depositId).sort()).toEqual([
      'transfer.deposit.completed',
      'transfer.deposit.initiated',
    ]);
    await move({ frozen_time: null });
  });

  it('a transfer from the failing test bank account fails after processing; the hold or pending deposit is released', async () => {
    const investor = await activeInvestor(ctx, tenant.test);
    const good = await linkBankAccount(ctx, tenant.test, investor.id);
    const bad = await linkBankAccount(ctx, tenant.test, investor.id, { account_number: FAILING_ACCOUNT });
    const wallet = `/v1/wallet/accounts/${investor.account_id}`;
    const funded = await client().post(`${wallet}/funding`, fundingBody(good.id, '100.00'));
    await client().post(`/v1/test_helpers/wallet/transactions/${funded.body.transaction_id}/settle`);

    const deposit = await client().post(`${wallet}/funding`, fundingBody(bad.id, '40.00'));
    const withdrawal = await client().post(`${wallet}/withdrawals`, fundingBody(bad.id, '60.00'));
    expect(await balances(ctx, tenant.test, investor.account_id)).toMatchObject([
      { cash: '100.00', available: '40.00', pending_deposits: '40.00', withdrawal_holds: '60.00' },
    ]);
    await move({ advance_seconds: 6 * 24 * HOUR });
    for (const [type, res] of [
      ['deposit', deposit],
      ['withdrawal', withdrawal],
    ] as const) {
      const failed = await txn(investor.account_id, res.body.transaction_id);
      expect(failed.body).toMatchObject({
        status: 'failed',
        failure_reason: 'bank_account_closed',
        settled_at: null,
      });
      expect(Date.parse(failed.body.failed_at)).toBeGreaterThan(Date.parse(failed.body.created_at));
      const event = await webhook.event(`transfer.${type}.failed`, res.body.transaction_id);
      expect(event.data).toEqual({ ...failed.body, investor_id: investor.id });
    }
    expect(await balances(ctx, tenant.test, investor.account_id)).toEqual([
      {
        currency: 'USD',
        cash: '100.00',
        available: '100.00',
        pending_deposits: '0.00',
        withdrawal_holds: '0.00',
        order_holds: '0.00',
      },
    ]);
    await move({ frozen_time: null });
  });

  it('cancels while pending only: the hold is released and the canceled event sent', async () => {
    const investor = await activeInvestor(ctx, tenant.test);
    const bank = await linkBankAccount(ctx, tenant.test, investor.id);
    const wallet = `/v1/wallet/accounts/${investor.account_id}`;
    const funded = await client().post(`${wallet}/funding`, fundingBody(bank.id, '80.00'));
    await client().post(`/v1/test_helpers/wallet/transactions/${funded.body.transaction_id}/settle`);
    const withdrawal = await client().post(`${wallet}/withdrawals`, fundingBody(bank.id, '30.00'));
    const id = withdrawal.body.transaction_id as string;

    const canceled = await client().post(`${wallet}/transactions/${id}/cancel`);
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({
      status: 'canceled',
      canceled_at: expect.any(String),
      settled_at: null,
    });
    expect((await webhook.event('transfer.withdrawal.canceled', id)).data).toEqual({
      ...canceled.body,
      investor_id: investor.id,
    });
    expect(await balances(ctx, tenant.test, investor.account_id)).toMatchObject([
      { cash: '80.00', available: '80.00', withdrawal_holds: '0.00' },
    ]);
    expectSvcError(await client().post(`${wallet}/transactions/${id}/cancel`), 'SVC-409-001');

    const deposit = await client().post(`${wallet}/funding`, fundingBody(bank.id, '10.00'));
    await move({ advance_seconds: 2 * HOUR });
    expectSvcError(
      await client().post(`${wallet}/transactions/${deposit.body.transaction_id}/cancel`),
      'SVC-409-001',
      {
        message: `Transaction ${deposit.body.transaction_id} is processing; only a pending transaction can become canceled.`,
      },
    );
    await move({ frozen_time: null });
  });

  it('test helpers settle or fail at once; the investor’s own key may use them; finished ones are 409', async () => {
    const investor = await activeInvestor(ctx, tenant.test);
    const other = await activeInvestor(ctx, tenant.test);
    const bank = await linkBankAccount(ctx, tenant.test, investor.id);
    const otherBank = await linkBankAccount(ctx, tenant.test, other.id);
    const key = await (async () => {
      const res = await client().post(`/v1/investors/${investor.id}/api-keys`, { name: 'app' });
      return { id: res.body.id, publicKey: res.body.public_key, secret: res.body.secret };
    })();
    const mine = await ctx
      .as(key)
      .post(`/v1/wallet/accounts/${investor.account_id}/funding`, fundingBody(bank.id, '25.00'));
    expect(mine.status).toBe(201);
    const theirs = await client().post(
      `/v1/wallet/accounts/${other.account_id}/funding`,
      fundingBody(otherBank.id, '5.00'),
    );
    const helper = (creds: typeof key, id: string, action: 'settle' | 'fail', body?: object) =>
      ctx.as(creds).post(`/v1/test_helpers/wallet/transactions/${id}/${action}`, body);

    expectSvcError(await helper(key, theirs.body.transaction_id, 'settle'), 'SVC-404-001');
    expectSvcError(await helper(tenant.live, mine.body.transaction_id, 'settle'), 'SVC-404-001');
    const settled = await helper(key, mine.body.transaction_id, 'settle');
    expect(settled.status).toBe(200);
    expect(settled.body).toMatchObject({ status: 'settled', settled_at: expect.any(String) });
    await webhook.event('transfer.deposit.completed', mine.body.transaction_id);
    expectSvcError(await helper(key, mine.body.transaction_id, 'fail'), 'SVC-409-001');

    const failed = await helper(tenant.test, theirs.body.transaction_id, 'fail', {
      failure_reason: 'returned_by_bank',
    });
    expect(failed.body).toMatchObject({ status: 'failed', failure_reason: 'returned_by_bank' });
    await webhook.event('transfer.deposit.failed', theirs.body.transaction_id);
    expect(await balances(ctx, tenant.test, investor.account_id)).toMatchObject([
      { cash: '25.00', available: '25.00' },
    ]);
    expect(await balances(ctx, tenant.test, other.account_id)).toMatchObject([
      { cash: '0.00', pending_deposits: '0.00' },
    ]);
  });

  it('the envelope views: deposits and withdrawals of an investor, linked to their wallet transactions', async () => {
    const investor = await activeInvestor(ctx, tenant.test);
    const bank = await linkBankAccount(ctx, tenant.test, investor.id);
    const created = await client().post(`/v1/investors/${investor.id}/deposits`, {
      amount: '75.50',
      currency: 'USD',
      funding_source_id: bank.id,
      method: 'wire',
      description: 'Savings',
      metadata: { plan: 'gold' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^dep_/),
      object: 'deposit',
      created: expect.any(Number),
      livemode: false,
      metadata: { plan: 'gold' },
      investor_id: investor.id,
      account_id: investor.account_id,
      transaction_id: expect.stringMatching(/^txn_/),
      status: 'pending',
      amount: '75.50',
      currency: 'USD',
      fee: '0.00',
      net_amount: '75.50',
      funding_source_id: bank.id,
      method: 'wire',
      description: 'Savings',
      external_reference_id: null,
      failure_reason: null,
      settled_at: null,
      failed_at: null,
      canceled_at: null,
    });
    const walletView = await txn(investor.account_id, created.body.transaction_id);
    expect(walletView.body).toMatchObject({
      deposit_id: created.body.id,
      amount: '75.50',
      funding_details: { method: 'wire' },
    });
    await client().post(`/v1/test_helpers/wallet/transactions/${created.body.transaction_id}/settle`);
    const fetched = await client().get(`/v1/investors/${investor.id}/deposits/${created.body.id}`);
    expect(fetched.body).toMatchObject({
      status: 'settled',
      settled_at: expect.any(String),
    });

    const withdrawal = await client().post(`/v1/investors/${investor.id}/withdrawals`, {
      amount: '10.00',
      funding_source_id: bank.id,
    });
    expect(withdrawal.body).toMatchObject({
      object: 'withdrawal',
      status: 'pending',
      method: 'ach',
      metadata: {},
    });
    const deposits = await client().get(`/v1/investors/${investor.id}/deposits`);
    expect(deposits.body).toMatchObject({
      object: 'list',
      url: `/v1/investors/${investor.id}/deposits`,
      has_more: false,
    });
    expect(deposits.body.data.map((d: { id: string }) => d.id)).toEqual([created.body.id]);
    const withdrawals = await client().get(`/v1/investors/${investor.id}/withdrawals?limit=1`);
    expect(withdrawals.body.data.map((d: { id: string }) => d.id)).toEqual([withdrawal.body.id]);
    expectSvcError(
      await client().get(`/v1/investors/${investor.id}/deposits/${withdrawal.body.id}`),
      'SVC-404-001',
    );
    expectSvcError(
      await client().post(`/v1/investors/${investor.id}/withdrawals`, {
        amount: '65.51',
        funding_source_id: bank.id,
      }),
      'SVC-422-002',
      { param: 'amount' },
    );
  });

  async function payNoInterest(): Promise<void> {
    // Cash sweep interest stays out of these balances: the default tier pays 0 %, so a clock move
    // across a month's first business day pays nothing into cash.
    const [standard] = (await ctx.as(tenant.test).get('/v1/cash-management/apr-tiers')).body.data;
    await ctx
      .http()
      .patch(`/v1/cash-management/apr-tiers/${standard.id}`)
      .set('Authorization', basic(tenant.test))
      .send({ account_rate_bps: 0, correspondent_rate_bps: 0 });
  }

  const client = () => ctx.as(tenant.test);
  const move = (body: object) => client().post('/v1/test_helpers/clock', body);
  const txn = (accountId: string, id: string) =>
    client().get(`/v1/wallet/accounts/${accountId}/transactions/${id}`);

  /** 15:00 UTC of a NYSE trading day (a week or more ahead) whose next two calendar days trade too. */
  async function tradingDays(): Promise<Date> {
    const start = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    const end = new Date(Date.now() + 40 * 86_400_000).toISOString().slice(0, 10);
    const days = (await client().get(`/v1/markets/XNYS/calendar?start=${start}&end=${end}`)).body
      .data as Array<{
      date: string;
    }>;
    const next = (date: string) =>
      new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    const day = days.find(
      (d, i) => days[i + 1]?.date === next(d.date) && days[i + 2]?.date === next(next(d.date)),
    )!;
    return new Date(`${day.date}T15:00:00.000Z`);
  }
});

const HOUR = 3600;
