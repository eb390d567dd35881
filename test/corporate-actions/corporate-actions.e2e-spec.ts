import Decimal from 'decimal.js';
import { closeCliContext } from 'src/cli/cli-context';
import { useTestContext } from '../support/app';
import { expectSvcError } from '../support/errors';
import { advanceClock, freezeClock, MONDAY_OPEN, setPrice, trader } from '../trading/support/trading';

import { allActivities, netAmountsAndCash } from '../activities/support';
import {
  announce,
  corporateActionWebhook,
  costOf,
  entitlements,
  HOUR,
  DAY,
  cents,
  GB_RESIDENT,
} from './support';

describe('Corporate actions on the test clock', () => {
  const ctx = useTestContext();
  afterAll(() => closeCliContext());

  it('a 4-for-1 split and a $0.24 dividend reach quantity, cost basis, cash, open orders and webhooks', async () => {
    const tenant = await ctx.createTenant();
    const client = ctx.as(tenant.test);
    await freezeClock(ctx, tenant.test, MONDAY_OPEN);
    const hook = await corporateActionWebhook(ctx, tenant.test);
    const us = await trader(ctx, tenant.test, '10000.00');
    const gb = await trader(ctx, tenant.test, '10000.00', GB_RESIDENT);
    await setPrice(ctx, tenant.test, 'AAPL', '180');
    const buy = { symbol: 'AAPL', side: 'buy', type: 'market', time_in_force: 'day' };
    const usFill = await us.place({ ...buy, quantity: '10' });
    const gbFill = await gb.place({ ...buy, quantity: '3.5' });
    expect([usFill.body.status, gbFill.body.status]).toEqual(['filled', 'filled']);
    const resting = await us.place({
      symbol: 'AAPL',
      side: 'buy',
      type: 'limit',
      time_in_force: 'gtc',
      quantity: '2',
      limit_price: '1',
    });
    expect(resting.body.status).toBe('accepted');

    const split = await announce(ctx, tenant.test, {
      type: 'stock_split',
      symbol: 'AAPL',
      old_rate: '1',
      new_rate: '4',
      ex_date: '2049-03-03',
    });
    const dividend = await announce(ctx, tenant.test, {
      type: 'cash_dividend',
      symbol: 'AAPL',
      cash_rate: '0.24',
      declaration_date: '2049-02-20',
      ex_date: '2049-03-02',
      payable_date: '2049-03-04',
    });
    expect(split).toMatchObject({
      object: 'corporate_action',
      status: 'announced',
      record_date: '2049-03-03',
      payable_date: null,
      cash_rate: null,
      currency: 'USD',
      livemode: false,
      processed_at: null,
    });
    expect(dividend).toMatchObject({ status: 'announced', cash_rate: '0.24', record_date: '2049-03-02' });
    await hook.waitFor((e) => e.event === 'corporate_action.announced', 2);

    // Tuesday is the dividend's ex date: a fill that day does not count for it (it does for the split).
    await advanceClock(ctx, tenant.test, DAY);
    expect((await us.place({ ...buy, quantity: '2' })).body.status).toBe('filled');
    // Through the split (Wednesday 04:00 New York) and the payment (Thursday 04:00).
    await advanceClock(ctx, tenant.test, 2 * DAY - 5 * HOUR);

    const usExecutions = [
      ...(await us.executions(usFill.body.id)),
      ...(await us.executions(
        (await us.accountOrders('?status=filled')).body.find((o: any) => o.id !== usFill.body.id).id,
      )),
    ];
    const usBasis = costOf(usExecutions);
    const gbBasis = costOf(await gb.executions(gbFill.body.id));
    const [usPosition] = await us.positions();
    const [gbPosition] = await gb.positions();
    expect(usPosition).toMatchObject({ quantity: '48', total_cost_basis: usBasis.toFixed(2) });
    expect(usPosition.average_cost_basis).toBe(
      usBasis.div(48).toDecimalPlaces(8, Decimal.ROUND_HALF_EVEN).toFixed(),
    );
    expect(gbPosition).toMatchObject({ quantity: '14', total_cost_basis: gbBasis.toFixed(2) });
    // The tester's 180 set before the split is divided by 4 from the ex date: the value does not jump.
    expect(usPosition).toMatchObject({
      current_price: '45',
      market_value: new Decimal(12).times(180).toFixed(2),
    });

    // Dividend: 10 (Monday's close) × 0.24; the UK resident's 3.5 × 0.24 = 0.84 less 30 % (0.252 → 0.25).
    const gbGross = cents(new Decimal('3.5').times('0.24'));
    const gbWithheld = cents(gbGross.times('0.3'));
    expect((await us.balance()).cash).toBe(new Decimal(10000).minus(usBasis).plus('2.40').toFixed(2));
    expect((await gb.balance()).cash).toBe(
      new Decimal(10000).minus(gbBasis).plus(gbGross).minus(gbWithheld).toFixed(2),
    );
    // The resting buy was canceled by the split and its hold released.
    expect(await us.order(resting.body.id)).toMatchObject({ status: 'canceled' });
    expect((await us.balance()).available).toBe((await us.balance()).cash);

    const divRows = await entitlements(ctx, tenant.test, dividend.id);
    expect(divRows).toHaveLength(2);
    expect(divRows.find((r) => r.account_id === us.investor.account_id)).toMatchObject({
      investor_id: us.investor.id,
      eligible_quantity: '10',
      cash: '2.4',
      withholding: '0',
      net_cash: '2.4',
      quantity_change: '0',
      status: 'applied',
      applied_at: '2049-03-04T09:00:00.000Z',
    });
    expect(divRows.find((r) => r.account_id === gb.investor.account_id)).toMatchObject({
      eligible_quantity: '3.5',
      cash: gbGross.toFixed(),
      withholding: gbWithheld.toFixed(),
      net_cash: gbGross.minus(gbWithheld).toFixed(),
    });
    const splitRows = await entitlements(ctx, tenant.test, split.id);
    expect(splitRows.find((r) => r.account_id === us.investor.account_id)).toMatchObject({
      eligible_quantity: '12',
      quantity_change: '36',
      cash_in_lieu: '0',
      status: 'applied',
      applied_at: '2049-03-03T09:00:00.000Z',
    });
    for (const id of [split.id, dividend.id]) {
      expect((await client.get(`/v1/corporate-actions/${id}`)).body).toMatchObject({ status: 'processed' });
    }

    // The activities feed: DIV and DIVNRA on the payable date, SPLIT on the ex date, each naming its action.
    const caActivities = async (accountId: string) =>
      (await allActivities(ctx, tenant.test, accountId, '&activity_types=DIV,DIVNRA,SPLIT')).map((a) => ({
        activity_type: a.activity_type,
        status: a.status,
        date: a.date,
        transaction_time: a.transaction_time,
        currency: a.currency,
        net_amount: new Decimal(a.net_amount).toFixed(2),
        symbol: a.symbol,
        qty: a.qty === null ? null : new Decimal(a.qty).toFixed(),
        per_share_amount: a.per_share_amount === null ? null : new Decimal(a.per_share_amount).toFixed(),
        corporate_action_id: a.corporate_action_id,
      }));
    const splitActivity = (qty: Decimal) => ({
      activity_type: 'SPLIT',
      status: 'executed',
      date: '2049-03-03',
      transaction_time: '2049-03-03T09:00:00.000Z',
      currency: 'USD',
      net_amount: '0.00',
      symbol: 'AAPL',
      qty: qty.toFixed(),
      per_share_amount: null,
      corporate_action_id: split.id,
    });
    const paid = { status: 'executed', date: '2049-03-04', transaction_time: '2049-03-04T09:00:00.000Z' };
    const divActivity = {
      ...paid,
      currency: 'USD',
      symbol: 'AAPL',
      qty: null,
      corporate_action_id: dividend.id,
    };
    // US: 12 held at the split's eve → 48 (+36); dividend 10 × 0.24, nothing withheld.
    expect(await caActivities(us.investor.account_id)).toEqual([
      splitActivity(new Decimal(12).times(4).minus(12)),
      { ...divActivity, activity_type: 'DIV', net_amount: '2.40', per_share_amount: '0.24' },
    ]);
    // UK: 3.5 → 14 (+10.5); the gross and the withholding apart.
    expect(await caActivities(gb.investor.account_id)).toEqual([
      splitActivity(new Decimal('3.5').times(4).minus('3.5')),
      { ...divActivity, activity_type: 'DIV', net_amount: gbGross.toFixed(2), per_share_amount: '0.24' },
      {
        ...divActivity,
        activity_type: 'DIVNRA',
        net_amount: gbWithheld.neg().toFixed(2),
        per_share_amount: null,
      },
    ]);
    // Every activity of each account (deposit, fills, dividend, withholding) sums to its settled cash.
    for (const account of [us, gb]) {
      const sums = await netAmountsAndCash(ctx, tenant.test, account.investor.account_id);
      expect(sums.activities).toEqual(sums.cash);
    }

    const applied = await hook.waitFor((e) => e.event === 'corporate_action.applied', 4);
    expect(
      applied.find(
        (e) => e.data.corporate_action_id === split.id && e.data.account_id === us.investor.account_id,
      )?.data,
    ).toEqual({
      corporate_action_id: split.id,
      type: 'stock_split',
      account_id: us.investor.account_id,
      investor_id: us.investor.id,
      symbol: 'AAPL',
      quantity_before: '12',
      quantity_after: '48',
      cost_basis_before: usBasis.toFixed(),
      cost_basis_after: usBasis.toFixed(),
      cash: '0',
      withholding: '0',
      net_cash: '0',
      cash_in_lieu: '0',
      currency: 'USD',
    });
    expect(
      applied.find(
        (e) => e.data.corporate_action_id === dividend.id && e.data.account_id === gb.investor.account_id,
      )?.data,
    ).toMatchObject({
      quantity_before: '3.5',
      quantity_after: '3.5',
      cash: gbGross.toFixed(),
      withholding: gbWithheld.toFixed(),
      net_cash: gbGross.minus(gbWithheld).toFixed(),
    });
    await hook.waitFor((e) => e.event === 'corporate_action.processed', 2);
    const [canceled] = await hook.waitFor(
      (e) => e.event === 'order.canceled' && e.data.id === resting.body.id,
    );
    expect(canceled.data).toMatchObject({ status: 'canceled', cancel_reason: 'corporate_action' });
    // One application per account and action: nothing arrived twice.
    expect(hook.all().filter((e) => e.event === 'corporate_action.applied')).toHaveLength(4);
    await hook.stop();
  });

  it('refuses bad announcements with 400 naming the field, and scopes the routes', async () => {
    const tenant = await ctx.createTenant();
    const client = ctx.as(tenant.test);
    const split = {
      type: 'stock_split',
      symbol: 'AAPL',
      old_rate: '1',
      new_rate: '2',
      ex_date: '2049-03-03',
    };
    expectSvcError(
      await client.post('/v1/test_helpers/corporate-actions', { ...split, ex_date: undefined }),
      'SVC-400-002',
      { param: 'ex_date' },
    );
    expectSvcError(
      await client.post('/v1/test_helpers/corporate-actions', {
        type: 'cash_dividend',
        symbol: 'AAPL',
        cash_rate: '0.24',
        ex_date: '2049-03-03',
      }),
      'SVC-400-002',
      { param: 'payable_date' },
    );
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...split, ex_date: '2049-02-30' }, 'ex_date'],
      [{ ...split, record_date: '2049-03-02' }, 'record_date'],
      [{ ...split, declaration_date: '2049-03-04' }, 'declaration_date'],
      [{ ...split, new_rate: '0' }, 'new_rate'],
      [{ ...split, old_rate: '-1' }, 'old_rate'],
      [{ ...split, new_rate: '1' }, 'new_rate'],
      [{ ...split, cash_rate: '0.5' }, 'cash_rate'],
      [{ ...split, symbol: 'NOPE-NOT-A-SYMBOL' }, 'symbol'],
      [{ ...split, type: 'reverse_split' }, 'new_rate'],
      [{ ...split, type: 'spin_off' }, 'type'],
      [
        {
          type: 'cash_dividend',
          symbol: 'AAPL',
          cash_rate: '0.24',
          ex_date: '2049-03-03',
          payable_date: '2049-03-01',
        },
        'payable_date',
      ],
      [
        {
          type: 'cash_dividend',
          symbol: 'AAPL',
          cash_rate: '0.24',
          ex_date: '2049-03-03',
          payable_date: '2049-03-05',
          new_rate: '2',
        },
        'new_rate',
      ],
    ];
    for (const [body, param] of cases) {
      expectSvcError(await client.post('/v1/test_helpers/corporate-actions', body), 'SVC-400-001', { param });
    }
    const created = await announce(ctx, tenant.test, split);
    // Live keys and other tenants never see a test helper's announcement.
    expect((await ctx.as(tenant.live).get(`/v1/corporate-actions/${created.id}`)).status).toBe(404);
    const other = await ctx.createTenant();
    expect((await ctx.as(other.test).get(`/v1/corporate-actions/${created.id}`)).status).toBe(404);
    expect((await ctx.as(tenant.live).post('/v1/test_helpers/corporate-actions', split)).status).toBe(404);

    const list = await client.get('/v1/corporate-actions?symbol=AAPL&status=announced&limit=1');
    expect(list.body).toMatchObject({ object: 'list', has_more: false });
    expect(list.body.data.map((a: any) => a.id)).toEqual([created.id]);
    expectSvcError(await client.get('/v1/corporate-actions?type=merger'), 'SVC-400-001', { param: 'type' });
    expectSvcError(await client.get('/v1/corporate-actions?starting_after=ca_nope'), 'SVC-400-001', {
      param: 'starting_after',
    });

    const canceled = await client.post(`/v1/test_helpers/corporate-actions/${created.id}/cancel`);
    expect(canceled.status).toBe(200);
    expect(canceled.body.status).toBe('canceled');
    expect((await client.post(`/v1/test_helpers/corporate-actions/${created.id}/cancel`)).status).toBe(409);
    expect((await client.get('/v1/corporate-actions?status=canceled')).body.data).toHaveLength(1);
  });
});
