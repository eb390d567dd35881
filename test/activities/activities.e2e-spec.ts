import { useTenant, useTestContext } from '../support/app';
import { expectSvcError } from '../support/errors';
import { sandboxTerms } from '../support/sandbox-terms';
import { freezeClock, MONDAY_OPEN, setPrice } from '../trading/support/trading';
import { activeInvestor, balances, fundingBody, linkBankAccount } from '../wallet/support/wallet';
import { Activity, activityPage, allActivities, cents, fromCents, principalCents } from './support';

/**
 * Each activity type produced by the flow it reports (a deposit and its fee, fills and their
 * commissions, a withdrawal and its fee, the month's interest), read back through the feed and
 * checked against amounts computed here and against the balances the ledger gives.
 */
describe('Activities: every change of cash or positions, from its real flow', () => {
  const ctx = useTestContext();
  const tenant = useTenant(ctx);
  beforeAll(() => everyFlow(), 120_000);

  it('lists each step once, oldest first, with the fields that apply and null elsewhere', () => {
    const buyCash = principalCents('10', buyPrice);
    const sellCash = principalCents('4', sellPrice);
    const interest = cents(cashAfterInterest) - cents(cashBeforeInterest);
    expect(interest > 0n).toBe(true);
    const base = { account_id: account, status: 'executed', currency: 'USD', ...NULLS };
    expect(feed).toEqual([
      expect.objectContaining({
        ...base,
        activity_type: 'CSD',
        date: '2049-03-01',
        net_amount: '10000.00',
        transaction_id: deposit,
        symbol: null,
        qty: null,
        side: null,
        order_id: null,
      }),
      expect.objectContaining({
        ...base,
        activity_type: 'FEE',
        net_amount: '-100.00',
        transaction_id: deposit,
      }),
      expect.objectContaining({
        ...base,
        activity_type: 'FILL',
        net_amount: fromCents(-buyCash),
        symbol: 'AAPL',
        qty: '10',
        price: buyPrice,
        side: 'buy',
        order_id: buyOrder,
        transaction_id: null,
      }),
      expect.objectContaining({ ...base, activity_type: 'FEE', net_amount: '-1.00', order_id: buyOrder }),
      expect.objectContaining({
        ...base,
        activity_type: 'FILL',
        net_amount: fromCents(sellCash),
        symbol: 'AAPL',
        qty: '-4',
        price: sellPrice,
        side: 'sell',
        order_id: sellOrder,
      }),
      expect.objectContaining({ ...base, activity_type: 'FEE', net_amount: '-1.00', order_id: sellOrder }),
      expect.objectContaining({
        ...base,
        activity_type: 'CSW',
        net_amount: '-498.00',
        transaction_id: withdrawal,
      }),
      expect.objectContaining({
        ...base,
        activity_type: 'FEE',
        net_amount: '-2.00',
        transaction_id: withdrawal,
      }),
      expect.objectContaining({
        ...base,
        activity_type: 'INT',
        date: '2049-04-01',
        net_amount: fromCents(interest),
        symbol: null,
        qty: null,
      }),
    ]);
    const ids = feed.map((a) => a.id);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('sums to the ledger’s settled cash, step by step', () => {
    const total = feed.reduce((sum, a) => sum + cents(a.net_amount), 0n);
    expect(fromCents(total)).toBe(cashAfterInterest);
    const expected =
      1_000_000n -
      10_000n -
      principalCents('10', buyPrice) -
      100n +
      principalCents('4', sellPrice) -
      100n -
      50_000n;
    expect(cents(cashBeforeInterest)).toBe(expected);
  });

  it('filters by type, business date and a time range, both directions', async () => {
    const fills = await activityPage(ctx, tenant.test, account, '?activity_types=FILL,INT&direction=asc');
    expect(fills.map((a) => a.activity_type)).toEqual(['FILL', 'FILL', 'INT']);
    const april = await activityPage(ctx, tenant.test, account, '?date=2049-04-01');
    expect(april.map((a) => a.activity_type)).toEqual(['INT']);
    const newest = await activityPage(ctx, tenant.test, account, '?page_size=2');
    expect(newest.map((a) => a.id)).toEqual([feed[8].id, feed[7].id]);
    const next = await activityPage(ctx, tenant.test, account, `?page_size=2&page_token=${newest[1].id}`);
    expect(next.map((a) => a.id)).toEqual([feed[6].id, feed[5].id]);
    const interestTime = feed[8].transaction_time;
    const upTo = await activityPage(ctx, tenant.test, account, `?direction=asc&until=${interestTime}`);
    expect(upTo).toHaveLength(9);
    const after = await activityPage(ctx, tenant.test, account, `?after=${feed[7].transaction_time}`);
    expect(after.map((a) => a.activity_type)).toEqual(['INT']);
  });

  it.each([
    ['activity_types=FILL,BOGUS', 'activity_types'],
    ['date=2049-02-30', 'date'],
    ['date=yesterday', 'date'],
    ['after=2049-03-01', 'after'],
    ['until=2049-13-01T00:00:00Z', 'until'],
    ['direction=up', 'direction'],
    ['page_size=0', 'page_size'],
    ['page_size=101', 'page_size'],
    ['page_token=act_000000000000000000000000', 'page_token'],
  ])('a bad query value (%s) is 400 naming the parameter', async (query, param) => {
    const res = await ctx.as(tenant.test).get(`/v1/trading/accounts/${account}/activities?${query}`);
    expectSvcError(res, 'SVC-400-001', { param });
  });

  it('another tenant’s account is not found, and a live key does not see test activities', async () => {
    const other = await ctx.createTenant();
    expectSvcError(await ctx.as(other.test).get(`/v1/trading/accounts/${account}/activities`), 'SVC-404-001');
    expectSvcError(
      await ctx.as(tenant.live).get(`/v1/trading/accounts/${account}/activities`),
      'SVC-404-001',
    );
  });

  it('a page token of another account is refused, naming it', async () => {
    const investor = await activeInvestor(ctx, tenant.test);
    const res = await ctx
      .as(tenant.test)
      .get(`/v1/trading/accounts/${investor.account_id}/activities?page_token=${feed[0].id}`);
    expectSvcError(res, 'SVC-400-001', { param: 'page_token' });
  });

  // What everyFlow made and the cases read back.
  let account: string;
  let feed: Activity[];
  let buyOrder: string;
  let sellOrder: string;
  let deposit: string;
  let withdrawal: string;
  let buyPrice: string;
  let sellPrice: string;
  let cashBeforeInterest: string;
  let cashAfterInterest: string;

  /** Commission and fee terms; a deposit, a buy and a sell of AAPL, a withdrawal, each settled or filled, then the clock across 1 April for March's interest; the whole feed read back. */
  async function everyFlow(): Promise<void> {
    await sandboxTerms(ctx, tenant.tenantId, 'commission', { commission_type: 'notional', amount: '1.00' });
    await sandboxTerms(ctx, tenant.tenantId, 'transfer-settings', {
      deposit_fee_bps: 100,
      withdrawal_fee_flat: '2.00',
    });
    const client = ctx.as(tenant.test);
    await freezeClock(ctx, tenant.test, MONDAY_OPEN);
    const investor = await activeInvestor(ctx, tenant.test);
    account = investor.account_id;
    const bank = await linkBankAccount(ctx, tenant.test, investor.id);
    const wallet = `/v1/wallet/accounts/${account}`;
    deposit = (await client.post(`${wallet}/funding`, fundingBody(bank.id, '10000.00'))).body.transaction_id;
    expect((await client.post(`/v1/test_helpers/wallet/transactions/${deposit}/settle`)).status).toBe(200);

    buyPrice = (await setPrice(ctx, tenant.test, 'AAPL', '187.25')).ask;
    const buy = await client.post(`/v1/investors/${investor.id}/orders`, {
      symbol: 'AAPL',
      side: 'buy',
      type: 'market',
      time_in_force: 'day',
      quantity: '10',
    });
    expect(buy.body.status).toBe('filled');
    buyOrder = buy.body.id;
    sellPrice = (await setPrice(ctx, tenant.test, 'AAPL', '190.10')).bid;
    const sell = await client.post(`/v1/investors/${investor.id}/orders`, {
      symbol: 'AAPL',
      side: 'sell',
      type: 'market',
      time_in_force: 'day',
      quantity: '4',
    });
    expect(sell.body.status).toBe('filled');
    sellOrder = sell.body.id;

    withdrawal = (await client.post(`${wallet}/withdrawals`, fundingBody(bank.id, '500.00'))).body
      .transaction_id;
    expect((await client.post(`/v1/test_helpers/wallet/transactions/${withdrawal}/settle`)).status).toBe(200);

    cashBeforeInterest = (await balances(ctx, tenant.test, account))[0].cash;
    // Across 1 April 2049 (Thursday, a business day) 09:00 New York: March's interest is paid.
    await freezeClock(ctx, tenant.test, '2049-04-01T14:00:00Z');
    cashAfterInterest = (await balances(ctx, tenant.test, account))[0].cash;
    feed = await allActivities(ctx, tenant.test, account);
  }
});

const NULLS = {
  per_share_amount: null,
  corporate_action_id: null,
  journal_id: null,
  conversion_id: null,
};
