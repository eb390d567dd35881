import Decimal from 'decimal.js';
import { DataSource } from 'typeorm';
import { itLocal, useTenant, useTestContext } from '../support/app';
import { expectSvcError } from '../support/errors';
import { allActivities, netAmountsAndCash } from '../activities/support';
import { advanceClock, freezeClock, MONDAY_OPEN, setPrice, trader } from '../trading/support/trading';

import { announce, corporateActionWebhook, costOf, entitlements, expectAuditClean } from './support';
import { onlyStatement, unitsBySymbol, HOUR, cents, EX_DATE_0400 } from './support';

/**
 * docs/decisions.md, Corporate actions, at 04:00 of the ex date: a cash merger closes ADBE at 325.125 a
 * share (realizing cash − basis); a stock merger turns AMD into 3 AXAHY for every 2 (AXAHY is not
 * fractionable: the fraction is cash in lieu at its previous close) plus 1.25 a share in cash, the
 * basis carried over and averaged into the AXAHY already held. Open orders on both are canceled.
 * Every figure is computed here from the fills.
 */
describe('Mergers on the test clock', () => {
  const ctx = useTestContext();
  const tenant = useTenant(ctx);
  beforeAll(() => holdAndAnnounce());
  afterAll(() => hook?.stop());

  it('closes the cash merger’s positions for cash and moves the stock merger’s into the acquirer', async () => {
    const e = { us: expected('us'), gb: expected('gb') };
    // 7 AMD → 10.5 AXAHY: 10 whole shares join the 4 held, basis carried over and averaged.
    expect(await us.positions()).toEqual([
      expect.objectContaining({
        symbol: 'AXAHY',
        quantity: e.us.whole.plus(4).toFixed(),
        total_cost_basis: cents(basis.usAxahy.plus(e.us.carried)).toFixed(2),
      }),
    ]);
    expect(await gb.positions()).toEqual([
      expect.objectContaining({
        symbol: 'AXAHY',
        quantity: e.gb.whole.toFixed(),
        total_cost_basis: cents(e.gb.carried).toFixed(2),
      }),
    ]);
    const spent = {
      us: basis.usAdbe.plus(basis.usAmd).plus(basis.usAxahy),
      gb: basis.gbAdbe.plus(basis.gbAmd),
    };
    for (const [name, t] of [['us', us] as const, ['gb', gb] as const]) {
      const got = e[name].mergerCash.plus(e[name].stockCash).plus(e[name].cashInLieu);
      const balance = await t.balance();
      expect(balance.cash).toBe(new Decimal(20000).minus(spent[name]).plus(got).toFixed(2));
      // The canceled orders' holds are released.
      expect(balance.available).toBe(balance.cash);
    }
    expect(await entitlements(ctx, tenant.test, cashMerger.id)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          account_id: us.investor.account_id,
          eligible_quantity: '10',
          cash: e.us.mergerCash.toFixed(),
          net_cash: e.us.mergerCash.toFixed(),
          quantity_change: '-10',
          status: 'applied',
          applied_at: EX_DATE_0400,
        }),
      ]),
    );
    const [gbStock] = (await entitlements(ctx, tenant.test, stockMerger.id)).filter(
      (r) => r.account_id === gb.investor.account_id,
    );
    expect(gbStock).toMatchObject({
      eligible_quantity: '2.5',
      cash: e.gb.stockCash.toFixed(),
      quantity_change: e.gb.whole.minus('2.5').toFixed(),
      cash_in_lieu: e.gb.cashInLieu.toFixed(),
      status: 'applied',
    });
  });

  it('makes the merged assets inactive and not tradable, and cancels their open orders', async () => {
    for (const symbol of ['ADBE', 'AMD']) {
      expect((await ctx.as(tenant.test).get(`/v1/assets/${symbol}`)).body).toMatchObject({
        status: 'inactive',
        tradable: false,
      });
      const res = await us.place({
        symbol,
        side: 'buy',
        type: 'market',
        time_in_force: 'day',
        quantity: '1',
      });
      expectSvcError(res, 'SVC-422-006', { param: 'symbol' });
    }
    expect(await us.order(resting.usSell)).toMatchObject({ status: 'canceled' });
    expect(await gb.order(resting.gbBuy)).toMatchObject({ status: 'canceled' });
    const canceled = await hook.waitFor((ev) => ev.event === 'order.canceled', 2);
    expect(canceled.map((ev) => ev.data.cancel_reason)).toEqual(['corporate_action', 'corporate_action']);
  });

  it('records MA and CIL activities summing to cash, and sends corporate_action.applied', async () => {
    const e = expected('us');
    const feed = await allActivities(ctx, tenant.test, us.investor.account_id, '&activity_types=MA,CIL');
    const row = (a: (typeof feed)[number]) => [
      a.activity_type,
      a.date,
      a.symbol,
      a.qty === null ? null : new Decimal(a.qty).toFixed(),
      a.price === null ? null : new Decimal(a.price).toFixed(),
      new Decimal(a.net_amount).toFixed(2),
      a.corporate_action_id,
    ];
    // The two actions apply at the same instant, in either order; each one's activities in its order.
    const byAction = (id: string) => feed.filter((a) => a.corporate_action_id === id).map(row);
    expect([...byAction(cashMerger.id), ...byAction(stockMerger.id)]).toEqual([
      ['MA', '2049-03-03', 'ADBE', '-10', null, e.mergerCash.toFixed(2), cashMerger.id],
      ['MA', '2049-03-03', 'AMD', '-7', null, e.stockCash.toFixed(2), stockMerger.id],
      // 7 × 3 / 2 = 10.5 AXAHY converted, of which the half is sold at AXAHY's previous close.
      ['MA', '2049-03-03', 'AXAHY', '10.5', null, '0.00', stockMerger.id],
      [
        'CIL',
        '2049-03-03',
        'AXAHY',
        '-0.5',
        acquirerClose.toFixed(),
        e.cashInLieu.toFixed(2),
        stockMerger.id,
      ],
    ]);
    expect(e.fraction.toFixed()).toBe('0.5');
    expect(feed).toHaveLength(4);
    // Each account's units by its activities (fills, mergers, the fraction sold) are its positions.
    for (const t of [us, gb]) {
      const units = unitsBySymbol(await allActivities(ctx, tenant.test, t.investor.account_id));
      const positions = Object.fromEntries((await t.positions()).map((p: any) => [p.symbol, p.quantity]));
      expect(units).toEqual(positions);
    }
    for (const t of [us, gb]) {
      const sums = await netAmountsAndCash(ctx, tenant.test, t.investor.account_id);
      expect(sums.activities).toEqual(sums.cash);
    }
    const applied = await hook.waitFor((ev) => ev.event === 'corporate_action.applied', 4);
    const of = (id: string) =>
      applied.find(
        (ev) => ev.data.corporate_action_id === id && ev.data.account_id === us.investor.account_id,
      )?.data;
    expect(of(cashMerger.id)).toEqual({
      corporate_action_id: cashMerger.id,
      type: 'cash_merger',
      account_id: us.investor.account_id,
      investor_id: us.investor.id,
      symbol: 'ADBE',
      quantity_before: '10',
      quantity_after: '0',
      cost_basis_before: basis.usAdbe.toFixed(),
      cost_basis_after: '0',
      cash: e.mergerCash.toFixed(),
      withholding: '0',
      net_cash: e.mergerCash.toFixed(),
      cash_in_lieu: '0',
      currency: 'USD',
    });
    expect(of(stockMerger.id)).toMatchObject({
      type: 'stock_merger',
      quantity_before: '7',
      quantity_after: e.whole.toFixed(),
      cost_basis_before: basis.usAmd.toFixed(),
      cost_basis_after: e.carried.toFixed(),
      cash: e.stockCash.toFixed(),
      cash_in_lieu: e.cashInLieu.toFixed(),
    });
    await hook.waitFor((ev) => ev.event === 'corporate_action.processed', 2);
  });

  itLocal('a retried application applies nothing twice, and the ledger audit holds', async () => {
    const { Reorganizations } = await import('src/modules/corporate-actions/reorganizations');
    const { CorporateActionsRepository } =
      await import('src/modules/corporate-actions/corporate-actions.repository');
    const scope = { tenantId: tenant.tenantId, livemode: false };
    const action = await ctx.app!.get(CorporateActionsRepository).find(scope, cashMerger.id);
    const cash = (await us.balance()).cash;
    // The holder row as a batch read it before the first run committed.
    const stale = {
      account_id: us.investor.account_id,
      quantity: '10',
      held_quantity: '0',
      total_cost_basis: basis.usAdbe.toFixed(),
    };
    await ctx.app!.get(DataSource).transaction((manager) =>
      ctx.app!.get(Reorganizations).applyCashMergers(manager, scope, action!, [stale], {
        investorIds: new Map([[stale.account_id, us.investor.id]]),
        now: new Date(EX_DATE_0400),
      }),
    );
    expect((await us.balance()).cash).toBe(cash);
    expect(await allActivities(ctx, tenant.test, us.investor.account_id, '&activity_types=MA')).toHaveLength(
      3,
    );
    await new Promise((r) => setTimeout(r, 500));
    expect(hook.all().filter((ev) => ev.event === 'corporate_action.applied')).toHaveLength(4);
    await expectAuditClean(ctx, tenant.tenantId);
  });

  it('counts the cash merger’s and the cash in lieu’s gain or loss in the month’s statement', async () => {
    // Into April: March's statement is made at 09:00 New York on the 1st.
    await freezeClock(ctx, tenant.test, '2049-04-01T14:00:00Z');
    for (const [name, t] of [['us', us] as const, ['gb', gb] as const]) {
      const statement = await onlyStatement(ctx, tenant.test, t.investor.id);
      expect(statement.totals).toEqual([
        expect.objectContaining({
          currency: 'USD',
          realized_gain_loss: cents(expected(name).realized).toFixed(2),
        }),
      ]);
    }
  });

  // What holdAndAnnounce (the beforeAll) leaves for the tests.
  let us: Trader;
  let gb: Trader;
  let hook: Awaited<ReturnType<typeof corporateActionWebhook>>;
  let cashMerger: Record<string, any>;
  let stockMerger: Record<string, any>;
  /** AXAHY's previous close as read on the eve of the ex date. */
  let acquirerClose: Decimal;
  const basis: Record<string, Decimal> = {};
  const resting: Record<string, string> = {};

  /** Both traders buy ADBE and AMD (the US one AXAHY too) and rest an order each; both mergers are announced and the clock runs to 04:00 on the ex date. */
  async function holdAndAnnounce(): Promise<void> {
    await freezeClock(ctx, tenant.test, MONDAY_OPEN);
    hook = await corporateActionWebhook(ctx, tenant.test);
    us = await trader(ctx, tenant.test, '20000.00');
    gb = await trader(ctx, tenant.test, '20000.00');
    await setPrice(ctx, tenant.test, 'ADBE', '300');
    await setPrice(ctx, tenant.test, 'AMD', '200');
    await setPrice(ctx, tenant.test, 'AXAHY', '40');
    basis.usAdbe = await buy(us, 'ADBE', '10');
    basis.usAmd = await buy(us, 'AMD', '7');
    basis.usAxahy = await buy(us, 'AXAHY', '4');
    basis.gbAdbe = await buy(gb, 'ADBE', '2.5');
    basis.gbAmd = await buy(gb, 'AMD', '2.5');
    const limit = { type: 'limit', time_in_force: 'gtc' };
    resting.usSell = (
      await us.place({ ...limit, symbol: 'ADBE', side: 'sell', quantity: '3', limit_price: '9000' })
    ).body.id;
    resting.gbBuy = (
      await gb.place({ ...limit, symbol: 'AMD', side: 'buy', quantity: '1', limit_price: '1' })
    ).body.id;
    cashMerger = await announce(ctx, tenant.test, {
      type: 'cash_merger',
      symbol: 'ADBE',
      cash_rate: '325.125',
      ex_date: '2049-03-03',
      payable_date: '2049-03-05',
    });
    stockMerger = await announce(ctx, tenant.test, {
      type: 'stock_merger',
      symbol: 'AMD',
      new_symbol: 'AXAHY',
      old_rate: '2',
      new_rate: '3',
      cash_rate: '1.25',
      ex_date: '2049-03-03',
    });
    // Tuesday 22:00 New York: the partner reads AXAHY's previous close; then through 04:00 Wednesday.
    await advanceClock(ctx, tenant.test, 24 * HOUR + 12 * HOUR);
    acquirerClose = new Decimal((await ctx.as(tenant.test).get('/v1/assets/AXAHY')).body.previousClose);
    await advanceClock(ctx, tenant.test, 12 * HOUR);
  }

  async function buy(t: Trader, symbol: string, quantity: string): Promise<Decimal> {
    const res = await t.place({ symbol, side: 'buy', type: 'market', time_in_force: 'day', quantity });
    expect(res.body.status).toBe('filled');
    return costOf(await t.executions(res.body.id));
  }

  /** The independent figures of each account: what the mergers pay and leave. */
  function expected(t: 'us' | 'gb') {
    const [adbe, amd] = t === 'us' ? ['10', '7'] : ['2.5', '2.5'];
    const mergerCash = cents(new Decimal(adbe).times('325.125'));
    const shares = new Decimal(amd).times(3).div(2);
    const whole = shares.floor();
    const fraction = shares.minus(whole);
    const amdBasis = t === 'us' ? basis.usAmd : basis.gbAmd;
    const fractionBasis = basisShare(amdBasis, fraction, shares);
    const cashInLieu = cents(fraction.times(acquirerClose));
    return {
      mergerCash,
      // The cash merger's cash less the ADBE basis, and the fraction's cash in lieu less its basis.
      realized: mergerCash
        .minus(t === 'us' ? basis.usAdbe : basis.gbAdbe)
        .plus(cashInLieu.minus(fractionBasis)),
      stockCash: cents(new Decimal(amd).times('1.25')),
      whole,
      fraction,
      cashInLieu,
      carried: amdBasis.minus(fractionBasis),
    };
  }
});

const basisShare = (basis: Decimal, part: Decimal.Value, whole: Decimal.Value) =>
  basis.times(part).div(whole).toDecimalPlaces(8, Decimal.ROUND_HALF_EVEN);

type Trader = Awaited<ReturnType<typeof trader>>;
