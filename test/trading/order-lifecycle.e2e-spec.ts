import Decimal from 'decimal.js';
import { useTenant, useTestContext } from '../support/app';
import { madeBeforeAll } from '../support/made-before-all';
import {
  advanceClock,
  freezeClock,
  MONDAY_OPEN,
  orderWebhook,
  SATURDAY,
  setPrice,
  trader,
} from './support/trading';

/** Each order type × time_in_force path, driven by the price helper and the test clock, with its events. */
describe('Order lifecycle: types, times in force, fills and events', () => {
  const { ctx, tenant, hook } = useClockAndOrderWebhook(MONDAY_OPEN);
  const t = madeBeforeAll('The trader', () => trader(ctx, tenant.test, '100000.00'));

  it('market buy by notional fills at once at the ask; order.accepted then order.filled carry the spec’s fields', async () => {
    const quote = await setPrice(ctx, tenant.test, 'AAPL', '200.00');
    const before = await t.balance();
    const res = await t.place({
      symbol: 'AAPL',
      side: 'buy',
      type: 'market',
      time_in_force: 'day',
      notional: '1000',
    });
    expect(res.status).toBe(201);
    const quantity = new Decimal(1000).div(quote.ask).toDecimalPlaces(8, Decimal.ROUND_DOWN);
    expect(res.body).toMatchObject({
      object: 'order',
      notional: '1000',
      status: 'filled',
      filled_quantity: quantity.toFixed(),
      average_price: quote.ask,
    });
    const events = await hook.waitFor(res.body.id, ['order.accepted', 'order.filled']);
    expect(events.map((e) => e.event)).toEqual(['order.accepted', 'order.filled']);
    expect(events[1].data).toMatchObject({
      id: res.body.id,
      investor_id: t.investor.id,
      symbol: 'AAPL',
      side: 'buy',
      status: 'filled',
      filled_quantity: quantity.toFixed(),
      average_price: quote.ask,
    });
    const [execution] = await t.executions(res.body.id);
    expect(execution).toMatchObject({
      object: 'execution',
      livemode: false, // a test-mode order's execution (spec, Resource envelope)
      price: quote.ask,
      price_source: 'override',
      quantity: quantity.toFixed(),
    });
    const cost = quantity.times(quote.ask).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
    expect((await t.balance()).cash).toBe(new Decimal(before.cash).minus(cost).toFixed(2));
    expect(await t.positions()).toEqual([
      expect.objectContaining({
        symbol: 'AAPL',
        quantity: quantity.toFixed(),
        total_cost_basis: cost.toFixed(2),
      }),
    ]);
  });

  it('gtc limit buy waits until a tick makes it marketable, then fills at the ask', async () => {
    await setPrice(ctx, tenant.test, 'MSFT', '100.00');
    const res = await t.place({
      symbol: 'MSFT',
      side: 'buy',
      type: 'limit',
      time_in_force: 'gtc',
      quantity: '5',
      limit_price: '95',
    });
    expect(res.body.status).toBe('accepted');
    await setPrice(ctx, tenant.test, 'MSFT', '97.00');
    expect((await t.order(res.body.id)).status).toBe('accepted');
    const quote = await setPrice(ctx, tenant.test, 'MSFT', '94.00');
    expect(await t.order(res.body.id)).toMatchObject({
      status: 'filled',
      filled_quantity: '5',
      average_price: quote.ask,
    });
    const events = await hook.waitFor(res.body.id, ['order.accepted', 'order.filled']);
    expect(events.map((e) => e.event)).toEqual(['order.accepted', 'order.filled']);
  });

  it('stop sell triggers when the last price reaches the stop and fills at the bid', async () => {
    await setPrice(ctx, tenant.test, 'NVDA', '100.00');
    await buy('NVDA', '10');
    const res = await t.place({
      symbol: 'NVDA',
      side: 'sell',
      type: 'stop',
      time_in_force: 'gtc',
      quantity: '10',
      stop_price: '90',
    });
    expect(res.body.status).toBe('accepted');
    await setPrice(ctx, tenant.test, 'NVDA', '95.00');
    expect((await t.order(res.body.id)).status).toBe('accepted');
    const quote = await setPrice(ctx, tenant.test, 'NVDA', '89.00');
    expect(await t.order(res.body.id)).toMatchObject({ status: 'filled', average_price: quote.bid });
    await hook.waitFor(res.body.id, ['order.accepted', 'order.filled']);
    expect((await t.positions()).find((p: { symbol: string }) => p.symbol === 'NVDA')).toBeUndefined();
  });

  it('stop_limit buy triggers at the stop and fills while the ask is within the limit', async () => {
    await setPrice(ctx, tenant.test, 'AMZN', '100.00');
    const res = await t.place({
      symbol: 'AMZN',
      side: 'buy',
      type: 'stop_limit',
      time_in_force: 'day',
      quantity: '3',
      stop_price: '105',
      limit_price: '106',
    });
    await setPrice(ctx, tenant.test, 'AMZN', '104.00');
    expect((await t.order(res.body.id)).status).toBe('accepted');
    const quote = await setPrice(ctx, tenant.test, 'AMZN', '105.50');
    expect(await t.order(res.body.id)).toMatchObject({ status: 'filled', average_price: quote.ask });
  });

  it('trailing stop sell follows the high-water mark and triggers on the fall from it', async () => {
    await setPrice(ctx, tenant.test, 'META', '100.00');
    await buy('META', '4');
    const res = await t.place({
      symbol: 'META',
      side: 'sell',
      type: 'trailing_stop',
      time_in_force: 'gtc',
      quantity: '4',
      trail_percent: '10',
    });
    expect(res.body.status).toBe('accepted');
    await setPrice(ctx, tenant.test, 'META', '120.00'); // mark 120: stop 108
    await setPrice(ctx, tenant.test, 'META', '110.00');
    expect((await t.order(res.body.id)).status).toBe('accepted');
    const quote = await setPrice(ctx, tenant.test, 'META', '107.00');
    expect(await t.order(res.body.id)).toMatchObject({ status: 'filled', average_price: quote.bid });
    await hook.waitFor(res.body.id, ['order.filled']);
  });

  it('ioc fills what the quote shows and cancels the rest; its hold is released', async () => {
    await setPrice(ctx, tenant.test, 'TSLA', '1.00');
    const res = await t.place({
      symbol: 'TSLA',
      side: 'buy',
      type: 'market',
      time_in_force: 'ioc',
      quantity: '2000',
    });
    expect(res.body.status).toBe('canceled');
    const filled = new Decimal(res.body.filled_quantity);
    expect(filled.gte(100) && filled.lte(900)).toBe(true);
    expect(res.body.cancel_reason).toMatch(/^ioc/);
    const events = await hook.waitFor(res.body.id, [
      'order.accepted',
      'order.partially_filled',
      'order.canceled',
    ]);
    expect(events.map((e) => e.event)).toEqual([
      'order.accepted',
      'order.partially_filled',
      'order.canceled',
    ]);
    expect((await t.balance()).order_holds).toBe('0.00');
  });

  it('fok fills nothing when the quote cannot fill it all', async () => {
    await setPrice(ctx, tenant.test, 'JPM', '1.00');
    const res = await t.place({
      symbol: 'JPM',
      side: 'buy',
      type: 'market',
      time_in_force: 'fok',
      quantity: '2000',
    });
    expect(res.body).toMatchObject({ status: 'canceled', filled_quantity: '0', average_price: '0' });
    const events = await hook.waitFor(res.body.id, ['order.accepted', 'order.canceled']);
    expect(events.map((e) => e.event)).toEqual(['order.accepted', 'order.canceled']);
    const all = await t.place({
      symbol: 'JPM',
      side: 'buy',
      type: 'market',
      time_in_force: 'fok',
      quantity: '50',
    });
    expect(all.body).toMatchObject({ status: 'filled', filled_quantity: '50' });
  });

  it('above the displayed size a limit order fills partially across ticks (the documented rule)', async () => {
    await setPrice(ctx, tenant.test, 'KO', '1.00');
    const res = await t.place({
      symbol: 'KO',
      side: 'buy',
      type: 'limit',
      time_in_force: 'day',
      quantity: '2000',
      limit_price: '1.10',
    });
    expect(res.body.status).toBe('partially_filled');
    let order = res.body;
    for (let tick = 0; tick < 25 && order.status !== 'filled'; tick++) {
      await setPrice(ctx, tenant.test, 'KO', '1.00');
      order = await t.order(res.body.id);
    }
    expect(order).toMatchObject({ status: 'filled', filled_quantity: '2000' });
    const executions = await t.executions(res.body.id);
    expect(executions.length).toBeGreaterThan(2);
    expect(executions.reduce((s, e) => s.plus(e.quantity), new Decimal(0)).toFixed()).toBe('2000');
    await hook.waitFor(res.body.id, ['order.partially_filled', 'order.filled']);
    expect((await t.balance()).order_holds).toBe('0.00');
  });

  it('account-style reads: bare arrays with qty, filters, paging and updated_since', async () => {
    const all = await t.accountOrders('?limit=100');
    expect(Array.isArray(all.body)).toBe(true);
    // Newest first, stable even when the frozen clock gives every order the same submitted_at.
    expect(all.body[0]).toMatchObject({ symbol: 'KO', qty: '2000', filled_qty: '2000', remaining_qty: '0' });
    expect(all.body[all.body.length - 1]).toMatchObject({ symbol: 'AAPL', notional: '1000' });
    expect(all.body[all.body.length - 1]).not.toHaveProperty('qty');
    const filled = await t.accountOrders('?status=filled&side=sell&symbol=meta');
    expect(filled.body.map((o: { symbol: string; side: string }) => [o.symbol, o.side])).toEqual([
      ['META', 'sell'],
    ]);
    const page = await t.accountOrders('?limit=2&offset=1');
    expect(page.body.map((o: { id: string }) => o.id)).toEqual(
      all.body.slice(1, 3).map((o: { id: string }) => o.id),
    );
    const future = await t.accountOrders('?updated_since=2099-01-01T00:00:00Z');
    expect(future.body).toEqual([]);
    const bad = await t.accountOrders('?limit=101');
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe('limit');
    const one = await ctx
      .http()
      .get(`/v1/trading/accounts/${t.investor.account_id}/orders/${all.body[0].id}`)
      .set(
        'Authorization',
        `Basic ${Buffer.from(`${tenant.test.publicKey}:${tenant.test.secret}`).toString('base64')}`,
      );
    expect(one.body).toEqual(all.body[0]);
  });

  it('sells by notional: the units at the bid, the reservation released, cash credited', async () => {
    const quote = await setPrice(ctx, tenant.test, 'INTC', '50.00');
    await buy('INTC', '10');
    const before = await t.balance();
    const res = await t.place({
      symbol: 'INTC',
      side: 'sell',
      type: 'market',
      time_in_force: 'day',
      notional: '100',
    });
    const quantity = new Decimal(100).div(quote.bid).toDecimalPlaces(8, Decimal.ROUND_DOWN);
    expect(res.body).toMatchObject({
      status: 'filled',
      notional: '100',
      filled_quantity: quantity.toFixed(),
    });
    const proceeds = quantity.times(quote.bid).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
    expect((await t.balance()).cash).toBe(new Decimal(before.cash).plus(proceeds).toFixed(2));
    const left = new Decimal(10).minus(quantity).toFixed();
    expect((await t.positions()).find((p: { symbol: string }) => p.symbol === 'INTC')).toMatchObject({
      quantity: left,
    });
    // Nothing stays reserved: the rest can be sold in full.
    const rest = await t.place({
      symbol: 'INTC',
      side: 'sell',
      type: 'market',
      time_in_force: 'day',
      quantity: left,
    });
    expect(rest.body.status).toBe('filled');
  });

  async function buy(symbol: string, quantity: string) {
    const res = await t.place({ symbol, side: 'buy', type: 'market', time_in_force: 'day', quantity });
    expect(res.body.status).toBe('filled');
    return res.body;
  }
});

describe('Session events on the test clock', () => {
  const { ctx, tenant, hook } = useClockAndOrderWebhook(SATURDAY);
  const t = madeBeforeAll('The trader', () => trader(ctx, tenant.test, '100000.00'));

  it('opg and day orders placed over the weekend fill at Monday’s open; cls fills at the close; day orders left are canceled, gtc stays', async () => {
    await setPrice(ctx, tenant.test, 'IBM', '100.00');
    const opg = await t.place({
      symbol: 'IBM',
      side: 'buy',
      type: 'market',
      time_in_force: 'opg',
      quantity: '2',
    });
    const day = await t.place({
      symbol: 'IBM',
      side: 'buy',
      type: 'market',
      time_in_force: 'day',
      quantity: '1',
    });
    expect([opg.body.status, day.body.status]).toEqual(['accepted', 'accepted']);

    // Saturday 12:00 → Monday 09:31 New York.
    await advanceClock(ctx, tenant.test, 2 * 86_400 - 12 * 3600 + 9 * 3600 + 31 * 60);
    expect((await t.order(opg.body.id)).status).toBe('filled');
    expect((await t.order(day.body.id)).status).toBe('filled');
    await hook.waitFor(opg.body.id, ['order.accepted', 'order.filled']);

    const cls = await t.place({
      symbol: 'IBM',
      side: 'buy',
      type: 'market',
      time_in_force: 'cls',
      quantity: '3',
    });
    const waiting = await t.place({
      symbol: 'IBM',
      side: 'buy',
      type: 'limit',
      time_in_force: 'day',
      quantity: '1',
      limit_price: '50',
    });
    const kept = await t.place({
      symbol: 'IBM',
      side: 'buy',
      type: 'limit',
      time_in_force: 'gtc',
      quantity: '1',
      limit_price: '50',
    });
    expect([cls.body.status, waiting.body.status, kept.body.status]).toEqual([
      'accepted',
      'accepted',
      'accepted',
    ]);
    expect((await t.balance()).order_holds).not.toBe('0.00');

    await advanceClock(ctx, tenant.test, 7 * 3600); // past 16:00
    expect((await t.order(cls.body.id)).status).toBe('filled');
    expect(await t.order(waiting.body.id)).toMatchObject({
      status: 'canceled',
      cancel_reason: 'day order expired at the close of its session',
    });
    expect((await t.order(kept.body.id)).status).toBe('accepted');
    await hook.waitFor(waiting.body.id, ['order.accepted', 'order.canceled']);
    await hook.waitFor(cls.body.id, ['order.filled']);
    // Only the gtc order still holds cash: 1 × 50.
    expect((await t.balance()).order_holds).toBe('50.00');
  });
});

describe('Rejection at execution', () => {
  const { ctx, tenant, hook } = useClockAndOrderWebhook(SATURDAY);

  it('a market buy whose price doubled before the open is rejected: nothing filled, its hold released', async () => {
    const t = await trader(ctx, tenant.test, '1000.00');
    await setPrice(ctx, tenant.test, 'CSCO', '100.00');
    const res = await t.place({
      symbol: 'CSCO',
      side: 'buy',
      type: 'market',
      time_in_force: 'day',
      quantity: '9',
    });
    expect(res.body.status).toBe('accepted');
    expect((await t.balance()).order_holds).not.toBe('0.00');
    await setPrice(ctx, tenant.test, 'CSCO', '200.00'); // closed: evaluated, nothing happens
    // Saturday 12:00 → Monday 09:31 New York: the open evaluates it at 200.
    await advanceClock(ctx, tenant.test, 2 * 86_400 - 12 * 3600 + 9 * 3600 + 31 * 60);
    expect(await t.order(res.body.id)).toMatchObject({
      status: 'rejected',
      filled_quantity: '0',
      reject_reason: 'insufficient buying power at execution',
    });
    const events = await hook.waitFor(res.body.id, ['order.accepted', 'order.rejected']);
    expect(events.map((e) => e.event)).toEqual(['order.accepted', 'order.rejected']);
    expect(await t.balance()).toMatchObject({ cash: '1000.00', available: '1000.00', order_holds: '0.00' });
    expect(await t.executions(res.body.id)).toEqual([]);
  });
});

/**
 * A describe's app, a tenant whose test clock is frozen at `frozenAt` and its order webhook, the
 * webhook stopped and the app closed in the describe's afterAll: the file has one database, so
 * each describe's app closes before the next one boots.
 */
function useClockAndOrderWebhook(frozenAt: string) {
  const ctx = useTestContext();
  const tenant = useTenant(ctx);
  beforeAll(() => freezeClock(ctx, tenant.test, frozenAt));
  const hook = madeBeforeAll('The order webhook', () => orderWebhook(ctx, tenant.test));
  afterAll(() => hook.stop());
  afterAll(() => ctx.close());
  return { ctx, tenant, hook };
}
