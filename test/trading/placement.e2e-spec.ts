import Decimal from 'decimal.js';
import { TestTenant, useTenant, useTestContext } from '../support/app';
import { expectSvcError } from '../support/errors';
import { createInvestor } from '../investors/fixtures';

import { BOND_MONDAY_OPEN, freezeClock, MONDAY_OPEN, SATURDAY, setPrice, trader } from './support/trading';

describe('Placing orders: every refusal names its field and what to send instead', () => {
  const ctx = useTestContext();
  const tenant = useTenant(ctx);
  let t: Awaited<ReturnType<typeof trader>>;
  beforeAll(async () => {
    await freezeClock(ctx, tenant.test, MONDAY_OPEN);
    t = await trader(ctx, tenant.test, '1000.00');
    await setPrice(ctx, tenant.test, 'AAPL', '100.00');
  });

  it.each([
    ['both quantity and notional', { notional: '10' }, 'SVC-400-001', 'notional'],
    ['neither quantity nor notional', { quantity: undefined }, 'SVC-400-002', 'quantity'],
    ['limit without limit_price', { limit_price: undefined }, 'SVC-400-002', 'limit_price'],
    ['limit_price on a market order', { type: 'market' }, 'SVC-400-001', 'limit_price'],
    ['stop without stop_price', { type: 'stop', limit_price: undefined }, 'SVC-400-002', 'stop_price'],
    ['stop_limit without stop_price', { type: 'stop_limit' }, 'SVC-400-002', 'stop_price'],
    [
      'trailing stop with both trails',
      { type: 'trailing_stop', limit_price: undefined, trail_percent: '5', trail_price: '2' },
      'SVC-400-001',
      'trail_percent',
    ],
    [
      'trailing stop with neither trail',
      { type: 'trailing_stop', limit_price: undefined },
      'SVC-400-001',
      'trail_percent',
    ],
    ['trail_price on a limit order', { trail_price: '2' }, 'SVC-400-001', 'trail_price'],
    ['notional on a limit order', { quantity: undefined, notional: '10' }, 'SVC-400-001', 'notional'],
    [
      'notional with gtc',
      { type: 'market', limit_price: undefined, quantity: undefined, notional: '10', time_in_force: 'gtc' },
      'SVC-400-001',
      'notional',
    ],
    [
      'extended hours on a market order',
      { type: 'market', limit_price: undefined, extended_hours: true },
      'SVC-400-001',
      'extended_hours',
    ],
    [
      'extended hours with gtc',
      { extended_hours: true, time_in_force: 'gtc' },
      'SVC-400-001',
      'extended_hours',
    ],
    [
      'fractions of a non-fractionable asset',
      { symbol: 'AAGIY', quantity: '1.5' },
      'SVC-400-001',
      'quantity',
    ],
    ['crypto with day', { symbol: 'BTC/USD', time_in_force: 'day' }, 'SVC-400-001', 'time_in_force'],
    ['an unknown symbol', { symbol: 'NOPE_NOT_A_TICKER' }, 'SVC-400-001', 'symbol'],
    ['a zero quantity', { quantity: '0' }, 'SVC-400-001', 'quantity'],
    ['a negative price', { limit_price: '-1' }, 'SVC-400-001', 'limit_price'],
    ['an unknown type', { type: 'iceberg' }, 'SVC-400-001', 'type'],
    ['settlement_date on a stock', { settlement_date: '2049-03-03' }, 'SVC-400-001', 'settlement_date'],
  ])('400 for %s', async (_name, change, code, param) => {
    const res = await t.place({ ...base, ...change });
    expectSvcError(res, code as 'SVC-400-001', { param });
  });

  it('403 SVC-403-002 for a bond without fixedIncomeEnabled, before any 422', async () => {
    // The account is not ACTIVE and has no cash, yet entitlement is what the partner hears first.
    const inactive = await createInvestor(ctx, tenant.test, { enabled_assets: ['us_equity', 'bonds'] });
    const res = await ctx.as(tenant.test).post(`/v1/investors/${inactive.id}/orders`, {
      symbol: TREASURY_NOTE,
      side: 'buy',
      type: 'market',
      time_in_force: 'day',
      quantity: '1000',
    });
    expectSvcError(res, 'SVC-403-002');
  });

  it('422 SVC-422-001 when the account is not ACTIVE', async () => {
    const inactive = await createInvestor(ctx, tenant.test);
    const res = await ctx.as(tenant.test).post(`/v1/investors/${inactive.id}/orders`, base);
    expectSvcError(res, 'SVC-422-001', { param: 'investor_id' });
  });

  it('422 SVC-422-002 naming quantity when the hold exceeds buying power, and nothing is held', async () => {
    const res = await t.place({ ...base, quantity: '30', limit_price: '40' });
    expectSvcError(res, 'SVC-422-002', { param: 'quantity' });
    const notional = await t.place({
      symbol: 'AAPL',
      side: 'buy',
      type: 'market',
      time_in_force: 'day',
      notional: '5000',
    });
    expectSvcError(notional, 'SVC-422-002', { param: 'notional' });
    expect(await t.balance()).toMatchObject({ cash: '1000.00', available: '1000.00', order_holds: '0.00' });
  });

  it('422 SVC-422-003 naming quantity for a sell without the position (no shorting)', async () => {
    const res = await t.place({ ...base, side: 'sell' });
    expectSvcError(res, 'SVC-422-003', { param: 'quantity' });
  });

  it('422 SVC-422-006 naming symbol when the class is not in enabled_assets', async () => {
    const res = await t.place({ ...base, symbol: 'BTC/USD', time_in_force: 'gtc' });
    expectSvcError(res, 'SVC-422-006', { param: 'symbol', message: /enabled_assets/ });
  });

  it('400 naming client_order_id when it is reused on the account', async () => {
    const first = await t.place({ ...base, client_order_id: 'mine-1' });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ client_order_id: 'mine-1', status: 'accepted' });
    expectSvcError(await t.place({ ...base, client_order_id: 'mine-1' }), 'SVC-400-001', {
      param: 'client_order_id',
    });
    expect((await t.cancel(first.body.id)).status).toBe(200);
  });

  it('concurrent placements with one client_order_id: one is accepted, the others are 400 and hold nothing', async () => {
    const body = { ...base, quantity: '2', limit_price: '10', client_order_id: 'raced-1' };
    const results = await Promise.all(Array.from({ length: 6 }, () => t.place(body)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    results
      .filter((r) => r.status !== 201)
      .forEach((r) => expectSvcError(r, 'SVC-400-001', { param: 'client_order_id' }));
    expect(await t.balance()).toMatchObject({ available: '980.00', order_holds: '20.00' });
    expect((await t.cancel(results.find((r) => r.status === 201)!.body.id)).status).toBe(200);
  });

  it('a market buy fills at the ask of the price the helper set last, right after each change', async () => {
    const buyer = await trader(ctx, tenant.test, '10000.00');
    const body = { symbol: 'MSFT', side: 'buy', type: 'market', time_in_force: 'day', quantity: '1' };
    for (const price of ['20.00', '40.00', '30.00']) {
      const quote = await setPrice(ctx, tenant.test, 'MSFT', price);
      const res = await buyer.place(body);
      expect(res.status).toBe(201);
      expect(res.body.status).toBe('filled');
      expect(new Decimal(res.body.average_price).eq(quote.ask)).toBe(true);
    }
  });

  it('holds a limit buy’s cost at acceptance and releases it on cancel; a second cancel is 409 SVC-409-001', async () => {
    const res = await t.place({ ...base, quantity: '4', limit_price: '50.25' });
    expect(res.status).toBe(201);
    expect(await t.balance()).toMatchObject({ cash: '1000.00', available: '799.00', order_holds: '201.00' });
    const canceled = await t.cancel(res.body.id);
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({ status: 'canceled', cancel_reason: 'canceled on request' });
    expect(await t.balance()).toMatchObject({ available: '1000.00', order_holds: '0.00' });
    expectSvcError(await t.cancel(res.body.id), 'SVC-409-001');
  });

  it('replays a placement with the same Idempotency-Key and places once', async () => {
    const body = { ...base, limit_price: '10', client_order_id: 'idem-1' };
    const first = await t.place(body, 'order-key-1');
    const again = await t.place(body, 'order-key-1');
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    const listed = await t.accountOrders('?status=accepted');
    expect(
      listed.body.filter((o: { client_order_id: string }) => o.client_order_id === 'idem-1'),
    ).toHaveLength(1);
  });

  describe('bonds (fixedIncomeEnabled)', () => {
    let bonds: TestTenant;

    beforeAll(async () => {
      bonds = await ctx.createTenant({ fixedIncome: true });
      await freezeClock(ctx, bonds.test, BOND_MONDAY_OPEN);
    });

    it('422 SVC-422-005 when face value is not a multiple of min_increment; bonds are market or limit, day', async () => {
      const b = await trader(ctx, bonds.test, '50000.00', { enabled_assets: ['us_equity', 'bonds'] });
      const order = { symbol: TREASURY_NOTE, side: 'buy', type: 'market', time_in_force: 'day' };
      expectSvcError(await b.place({ ...order, quantity: '1050' }), 'SVC-422-005', { param: 'quantity' });
      expectSvcError(await b.place({ ...order, quantity: '1000', time_in_force: 'gtc' }), 'SVC-400-001', {
        param: 'time_in_force',
      });
      expectSvcError(
        await b.place({ ...order, type: 'stop', stop_price: '90', quantity: '1000' }),
        'SVC-400-001',
        {
          param: 'type',
        },
      );
      expectSvcError(
        await b.place({ ...order, quantity: '1000', settlement_date: '2027-03-01' }),
        'SVC-400-001',
        {
          param: 'settlement_date',
        },
      );
    });

    it('422 SVC-422-006 when bonds are not in enabled_assets', async () => {
      const b = await trader(ctx, bonds.test, '0');
      const res = await b.place({
        symbol: TREASURY_NOTE,
        side: 'buy',
        type: 'market',
        time_in_force: 'day',
        quantity: '1000',
      });
      expectSvcError(res, 'SVC-422-006', { param: 'symbol' });
    });
  });

  describe('sessions', () => {
    let weekend: TestTenant;

    beforeAll(async () => {
      weekend = await ctx.createTenant();
      await freezeClock(ctx, weekend.test, SATURDAY);
    });

    it('422 SVC-422-004 naming time_in_force for ioc and fok while the market is closed; day waits', async () => {
      const w = await trader(ctx, weekend.test, '1000.00');
      for (const tif of ['ioc', 'fok']) {
        const res = await w.place({ ...base, time_in_force: tif });
        expectSvcError(res, 'SVC-422-004', { param: 'time_in_force' });
      }
      const day = await w.place({
        symbol: 'AAPL',
        side: 'buy',
        type: 'market',
        time_in_force: 'day',
        quantity: '1',
      });
      expect(day.status).toBe(201);
      expect(day.body.status).toBe('accepted');
    });

    it('422 SVC-422-004 for cls in the last 10 minutes and opg during the session', async () => {
      const late = await ctx.createTenant();
      await freezeClock(ctx, late.test, '2049-03-01T20:55:00Z'); // 15:55 New York
      const l = await trader(ctx, late.test, '1000.00');
      expectSvcError(await l.place({ ...base, time_in_force: 'cls' }), 'SVC-422-004', {
        param: 'time_in_force',
      });
      expectSvcError(await l.place({ ...base, time_in_force: 'opg' }), 'SVC-422-004', {
        param: 'time_in_force',
      });
    });
  });

  const base = {
    symbol: 'AAPL',
    side: 'buy',
    type: 'limit',
    time_in_force: 'day',
    quantity: '1',
    limit_price: '50',
  };
});

const TREASURY_NOTE = '91282CQS3';
