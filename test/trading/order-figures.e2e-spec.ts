import Decimal from 'decimal.js';
import { createTestContext, TestContext, TestTenant } from '../support/app';
import { freezeClock, MONDAY_OPEN, setPrice, trader } from './support/trading';

/** What an order's figures say: its average price and, for trailing stops, the stop and the mark. */
describe('Order figures: average price and trailing stops', () => {
  let ctx: TestContext;
  let tenant: TestTenant;
  let t: Trader;

  beforeAll(async () => {
    ctx = await createTestContext();
    tenant = await ctx.createTenant();
    await freezeClock(ctx, tenant.test, MONDAY_OPEN);
    t = await trader(ctx, tenant.test, '100000.00');
  });

  afterAll(() => ctx?.close());

  it.each(['1000', '777.77', '12.34'])(
    'a notional buy of %s filled once reads its execution’s price as its average price',
    async (notional) => {
      const quote = await setPrice(ctx, tenant.test, 'AAPL', '230.00');
      const res = await t.place({
        symbol: 'AAPL',
        side: 'buy',
        type: 'market',
        time_in_force: 'day',
        notional,
      });
      expect(res.status).toBe(201);
      const [execution] = await t.executions(res.body.id);
      expect(execution.price).toBe(quote.ask);
      expect(res.body.average_price).toBe(quote.ask);
      expect((await t.order(res.body.id)).average_price).toBe(quote.ask);
      expect((await accountView(res.body.id))?.average_price).toBe(quote.ask);
    },
  );

  it('several fills at several prices: the volume-weighted price to the precision of their prices', async () => {
    await setPrice(ctx, tenant.test, 'TSLA', '1.00');
    const res = await t.place({
      symbol: 'TSLA',
      side: 'buy',
      type: 'limit',
      time_in_force: 'gtc',
      quantity: '2500',
      limit_price: '2.00',
    });
    expect(res.status).toBe(201);
    for (const price of ['1.13', '1.27', '1.41', '1.59', '1.73']) {
      if ((await t.order(res.body.id)).status === 'filled') {
        break;
      }
      await setPrice(ctx, tenant.test, 'TSLA', price);
    }
    const executions = await t.executions(res.body.id);
    expect(executions.length).toBeGreaterThan(1);
    expect(new Set(executions.map((e) => e.price)).size).toBeGreaterThan(1);
    const expected = vwap(executions);
    expect((await t.order(res.body.id)).average_price).toBe(expected);
    expect((await accountView(res.body.id))?.average_price).toBe(expected);
  });

  it('a trailing stop sell shows its high-water mark and the stop under it, moving up with the price only', async () => {
    await setPrice(ctx, tenant.test, 'META', '100.00');
    const bought = await t.place({
      symbol: 'META',
      side: 'buy',
      type: 'market',
      time_in_force: 'day',
      quantity: '4',
    });
    expect(bought.body.status).toBe('filled');
    const res = await t.place({
      symbol: 'META',
      side: 'sell',
      type: 'trailing_stop',
      time_in_force: 'gtc',
      quantity: '4',
      trail_percent: '10',
    });
    expect(res.body).toMatchObject({ status: 'accepted', hwm: '100', stop_price: '90' });
    const seen: Array<[string, string, string]> = [];
    for (const price of ['123.45', '110.00']) {
      await setPrice(ctx, tenant.test, 'META', price);
      const envelope = await t.order(res.body.id);
      const account = await accountView(res.body.id);
      expect(account).toMatchObject({ hwm: envelope.hwm, stop_price: envelope.stop_price });
      seen.push([price, envelope.hwm, envelope.stop_price]);
    }
    // 123.45 × (1 − 10 / 100) = 111.105; the fall to 110 leaves the mark at 123.45 and crosses the stop.
    expect(seen).toEqual([
      ['123.45', '123.45', '111.105'],
      ['110.00', '123.45', '111.105'],
    ]);
    expect((await t.order(res.body.id)).status).toBe('filled');
  });

  it('a trailing stop buy by price follows the low-water mark down: stop = mark + trail_price', async () => {
    await setPrice(ctx, tenant.test, 'NFLX', '50.00');
    const res = await t.place({
      symbol: 'NFLX',
      side: 'buy',
      type: 'trailing_stop',
      time_in_force: 'gtc',
      quantity: '1',
      trail_price: '2',
    });
    expect(res.body).toMatchObject({ status: 'accepted', hwm: '50', stop_price: '52' });
    await setPrice(ctx, tenant.test, 'NFLX', '45.50');
    expect(await t.order(res.body.id)).toMatchObject({ status: 'accepted', hwm: '45.5', stop_price: '47.5' });
    expect(await accountView(res.body.id)).toMatchObject({ hwm: '45.5', stop_price: '47.5' });
  });

  it('other orders carry hwm null and the stop they were placed with', async () => {
    await setPrice(ctx, tenant.test, 'AMZN', '100.00');
    const res = await t.place({
      symbol: 'AMZN',
      side: 'buy',
      type: 'stop',
      time_in_force: 'gtc',
      quantity: '1',
      stop_price: '150',
    });
    expect(res.body).toMatchObject({ status: 'accepted', hwm: null, stop_price: '150' });
  });

  async function accountView(id: string) {
    const res = await t.accountOrders('?limit=100');
    return (res.body as Array<Record<string, unknown>>).find((o) => o.id === id);
  }
});

type Trader = Awaited<ReturnType<typeof trader>>;

/** Σ quantity × price / Σ quantity of the executions, to the most decimals any of their prices has. */
function vwap(executions: Array<Record<string, string>>): string {
  const quantity = executions.reduce((s, e) => s.plus(e.quantity), new Decimal(0));
  const value = executions.reduce((s, e) => s.plus(new Decimal(e.quantity).times(e.price)), new Decimal(0));
  const decimals = Math.max(...executions.map((e) => new Decimal(e.price).decimalPlaces()));
  return value.div(quantity).toDecimalPlaces(decimals, Decimal.ROUND_HALF_EVEN).toFixed();
}
