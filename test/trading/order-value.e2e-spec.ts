import Decimal from 'decimal.js';
import { useTenant, useTestContext } from '../support/app';
import { expectSvcError } from '../support/errors';
import { freezeClock, MONDAY_OPEN, orderWebhook, setPrice, trader } from './support/trading';

/**
 * An order's cash is counted in the currency's minor units: a notional carries at most its
 * decimals, an order worth less than one unit at its own price is refused, and a fill that would
 * round to no money (a remainder of 1e-8 units after partial fills, a limit buy filling far below
 * its limit) ends the order instead of handing over units for nothing or wedging it open.
 */
describe('Orders worth less than one minor unit', () => {
  const ctx = useTestContext();
  const tenant = useTenant(ctx);
  beforeAll(() => freezeClock(ctx, tenant.test, MONDAY_OPEN));

  it('400 naming notional with more decimals than USD has, and naming quantity when worth less than 0.01 USD', async () => {
    const t = await trader(ctx, tenant.test, '1000.00');
    await setPrice(ctx, tenant.test, 'AAPL', '10.00');
    const market = { symbol: 'AAPL', side: 'buy', type: 'market', time_in_force: 'day' };
    expectSvcError(await t.place({ ...market, notional: '10.001' }), 'SVC-400-001', { param: 'notional' });
    expectSvcError(await t.place({ ...market, notional: '0.00000001' }), 'SVC-400-001', {
      param: 'notional',
    });
    expectSvcError(await t.place({ ...market, quantity: '0.00000001' }), 'SVC-400-001', {
      param: 'quantity',
    });
    const limit = { symbol: 'AAPL', side: 'buy', type: 'limit', time_in_force: 'gtc', limit_price: '5' };
    expectSvcError(await t.place({ ...limit, quantity: '0.0009' }), 'SVC-400-001', { param: 'quantity' });
    // 0.001 at 5 rounds half-up to 0.01: one cent is enough.
    expect((await t.place({ ...limit, quantity: '0.001' })).body.status).toBe('accepted');
    expect((await t.place({ ...market, notional: '0.01' })).body.status).toBe('filled');
    expect(await t.balance()).toMatchObject({ order_holds: '0.01' });
    // A sell's limit is a floor: one share with a limit of 0.001 is worth the bid, and fills there.
    expect((await t.place({ ...market, quantity: '1' })).body.status).toBe('filled');
    const sell = await t.place({ ...limit, side: 'sell', quantity: '1', limit_price: '0.001' });
    expect(sell.body).toMatchObject({ status: 'filled', filled_quantity: '1' });
  });

  it('a limit buy that would fill for less than a cent is rejected at acceptance, holding nothing', async () => {
    const t = await trader(ctx, tenant.test, '1000.00');
    await setPrice(ctx, tenant.test, 'MSFT', '1.00');
    // Worth 0.01 at its limit, so accepted; at the ask (about 1.01) the fill is worth 0.001.
    const res = await t.place({
      symbol: 'MSFT',
      side: 'buy',
      type: 'limit',
      time_in_force: 'gtc',
      quantity: '0.001',
      limit_price: '10',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: 'rejected',
      filled_quantity: '0',
      reject_reason: 'worth less than 0.01 USD at execution',
    });
    expect(await t.balance()).toMatchObject({ cash: '1000.00', available: '1000.00', order_holds: '0.00' });
  });

  it('a remainder of 1e-8 units after partial fills ends the order canceled and releases its hold', async () => {
    const t = await trader(ctx, tenant.test, '20000.00');
    const hook = await orderWebhook(ctx, tenant.test);
    await setPrice(ctx, tenant.test, 'NVDA', '1.00');
    const limitBuy = {
      symbol: 'NVDA',
      side: 'buy',
      type: 'limit',
      time_in_force: 'gtc',
      limit_price: '1.10',
    };
    // A fill takes at most the quote's displayed size, which the seeded quote sets for the frozen
    // minute: a probe's first fill shows it, so two such fills leave exactly 1e-8 units.
    const probe = await t.place({ ...limitBuy, quantity: '10000' });
    expect(probe.body.status).toBe('partially_filled');
    const size = new Decimal(probe.body.filled_quantity);
    expect((await t.cancel(probe.body.id)).status).toBe(200);
    const res = await t.place({ ...limitBuy, quantity: size.times(2).plus('0.00000001').toFixed() });
    expect(res.body.status).toBe('partially_filled');
    let order = res.body;
    for (let tick = 0; tick < 30 && order.status === 'partially_filled'; tick++) {
      await setPrice(ctx, tenant.test, 'NVDA', '1.00');
      order = await t.order(res.body.id);
    }
    expect(order).toMatchObject({
      status: 'canceled',
      filled_quantity: size.times(2).toFixed(),
      cancel_reason: 'worth less than 0.01 USD at execution',
    });
    try {
      const events = await hook.waitFor(res.body.id, ['order.canceled']);
      expect(events.at(-1)?.event).toBe('order.canceled');
    } finally {
      await hook.stop();
    }
    const balance = await t.balance();
    expect(balance).toMatchObject({ order_holds: '0.00', available: balance.cash });
    expect(await t.positions()).toEqual([
      expect.objectContaining({ symbol: 'NVDA', quantity: size.times(3).toFixed() }),
    ]);
  });
});
