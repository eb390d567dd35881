import { randomUUID } from 'node:crypto';
import Decimal from 'decimal.js';
import fc from 'fast-check';
import { changes, decide } from 'src/modules/trading/engine/fill-rules';
import { OrdersRepository, TickQuote } from 'src/modules/trading/orders.repository';
import { orderRow } from '../support/order-row';
import { createServiceContext, describeLocal, ServiceContext } from '../support/service-context';

/**
 * A price tick reads only the open orders its quote may change. Whatever the orders and the quote,
 * every order `decide` would change (fill, cancel, water mark, trigger) must be among those read.
 */
describeLocal('Open orders a price tick reads (repository on a real database)', () => {
  let ctx: ServiceContext;
  let orders: OrdersRepository;
  let tenantId: string;
  let accountId: string;
  const scope = () => ({ tenantId, livemode: false });

  beforeAll(async () => {
    ctx = await createServiceContext([]);
    orders = new OrdersRepository(ctx.dataSource);
    tenantId = await ctx.createTenant();
    accountId = randomUUID();
    await ctx.dataSource.query(
      `INSERT INTO investment_accounts (id, tenant_id, livemode, investor_id, account_number, status,
         enabled_assets, email_address, phone_number, address, identity, disclosures)
       VALUES ($1, $2, false, 'inv_tickfilter', 'TF0001', 'ACTIVE', '{us_equity}', 'tick@example.com',
         '+14155550123', '{}', '{}', '{}')`,
      [accountId, tenantId],
    );
  });

  afterAll(() => ctx?.close());

  interface Shape {
    side: 'buy' | 'sell';
    type: 'market' | 'limit' | 'stop' | 'stop_limit' | 'trailing_stop';
    tif: 'day' | 'gtc' | 'opg' | 'cls' | 'ioc' | 'fok';
    extendedHours: boolean;
    /** Limit and stop prices: a cent offset from the quote's last, bid or ask (at, just inside, just outside). */
    limit: Anchored;
    stop: Anchored;
    trailPercent: number | null;
    waterMark: Anchored | null;
    triggered: boolean;
    filled: number;
  }

  type Anchored = { anchor: 'last' | 'bid' | 'ask'; cents: number };
  type Quote = ReturnType<typeof quoteOf>;
  const price = fc.integer({ min: 9000, max: 11000 }).map((cents) => cents / 100);
  const anchored: fc.Arbitrary<Anchored> = fc.record({
    anchor: fc.constantFrom('last' as const, 'bid' as const, 'ask' as const),
    cents: fc.integer({ min: -3, max: 3 }),
  });
  const at = (q: Quote, p: Anchored) => q[p.anchor].plus(new Decimal(p.cents).div(100)).toFixed(2);
  const shape: fc.Arbitrary<Shape> = fc.record({
    side: fc.constantFrom('buy' as const, 'sell' as const),
    type: fc.constantFrom(
      'market' as const,
      'limit' as const,
      'stop' as const,
      'stop_limit' as const,
      'trailing_stop' as const,
    ),
    tif: fc.constantFrom(
      'day' as const,
      'gtc' as const,
      'opg' as const,
      'cls' as const,
      'ioc' as const,
      'fok' as const,
    ),
    extendedHours: fc.boolean(),
    limit: anchored,
    stop: anchored,
    trailPercent: fc.option(fc.integer({ min: 1, max: 5 })),
    waterMark: fc.option(anchored),
    triggered: fc.boolean(),
    filled: fc.integer({ min: 0, max: 9 }),
  });

  async function insert(assetId: string, shapes: Shape[], q: Quote): Promise<void> {
    const now = new Date();
    for (const [i, s] of shapes.entries()) {
      const limited = s.type === 'limit' || s.type === 'stop_limit';
      const stopped = s.type === 'stop' || s.type === 'stop_limit';
      const trailing = s.type === 'trailing_stop';
      await orders.insert(
        ctx.dataSource.manager,
        orderRow({
          id: `ord_tf_${randomUUID()}`,
          tenant_id: tenantId,
          investor_id: 'inv_tickfilter',
          account_id: accountId,
          asset_id: assetId,
          symbol: 'TICK',
          side: s.side,
          type: s.type,
          time_in_force: s.tif,
          quantity: '10',
          limit_price: limited ? at(q, s.limit) : null,
          stop_price: stopped ? at(q, s.stop) : null,
          trail_percent: trailing && s.trailPercent !== null ? String(s.trailPercent) : null,
          trail_price: trailing && s.trailPercent === null ? '1.5' : null,
          water_mark: trailing && s.waterMark !== null ? at(q, s.waterMark) : null,
          triggered: (stopped || trailing) && s.triggered,
          extended_hours: s.extendedHours,
          client_order_id: `tf-${assetId}-${i}`,
          status: s.filled > 0 ? 'partially_filled' : 'accepted',
          filled_quantity: String(s.filled),
          fill_count: s.filled > 0 ? 1 : 0,
          created_at: now,
          updated_at: now,
        }),
      );
    }
  }

  function quoteOf(last: number, spreadCents: number) {
    const q = {
      last: new Decimal(last.toFixed(2)),
      bid: new Decimal((last - spreadCents / 100).toFixed(2)),
      ask: new Decimal((last + spreadCents / 100).toFixed(2)),
      bidSize: new Decimal(300),
      askSize: new Decimal(300),
      source: 'override',
    };
    return q;
  }

  function tickOf(phase: 'regular' | 'extended', q: Quote): TickQuote {
    return { phase, last: q.last.toFixed(), bid: q.bid.toFixed(), ask: q.ask.toFixed() };
  }

  it('reads every order the quote changes, whatever the orders, quote and session phase', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(shape, { minLength: 1, maxLength: 25 }),
        price,
        fc.integer({ min: 0, max: 5 }),
        fc.constantFrom('regular' as const, 'extended' as const),
        async (shapes, last, spreadCents, phase) => {
          const assetId = `asset-tf-${randomUUID()}`;
          const q = quoteOf(last, spreadCents);
          await insert(assetId, shapes, q);
          const all = await orders.openOfAsset(ctx.dataSource.manager, scope(), assetId);
          const read = new Set(
            (await orders.openOfAsset(ctx.dataSource.manager, scope(), assetId, tickOf(phase, q))).map(
              (o) => o.id,
            ),
          );
          const changed = all.filter((o) => changes(o, decide(o, q, phase)));
          expect(
            changed.filter((o) => !read.has(o.id)).map((o) => [o.type, o.side, o.time_in_force]),
          ).toEqual([]);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('leaves resting limits and untriggered stops the quote does not reach, and orders not eligible, unread', async () => {
    const assetId = `asset-tf-${randomUUID()}`;
    const q = quoteOf(100, 5); // bid 99.95, last 100, ask 100.05
    const base: Shape = {
      side: 'buy',
      type: 'limit',
      tif: 'gtc',
      extendedHours: false,
      limit: { anchor: 'ask', cents: -1 },
      stop: { anchor: 'last', cents: 5 },
      trailPercent: 2,
      waterMark: null,
      triggered: false,
      filled: 0,
    };
    await insert(
      assetId,
      [
        base, // buy limit 100.04 under the ask: unread
        { ...base, limit: { anchor: 'ask', cents: 0 } }, // at the ask: read
        { ...base, side: 'sell', limit: { anchor: 'bid', cents: 1 } }, // sell limit 99.96 over the bid: unread
        { ...base, side: 'sell', limit: { anchor: 'bid', cents: 0 } }, // at the bid: read
        { ...base, type: 'stop' }, // buy stop 100.05 above the last: unread
        { ...base, type: 'stop', stop: { anchor: 'last', cents: 0 } }, // triggered by the last: read
        { ...base, type: 'stop_limit', side: 'sell', stop: { anchor: 'last', cents: -1 } }, // unread
        { ...base, tif: 'ioc' }, // a non-marketable ioc is canceled: read
        { ...base, type: 'trailing_stop' }, // its water mark moves: read
        { ...base, type: 'market', tif: 'opg' }, // waits for the open: unread in the regular session
      ],
      q,
    );
    const read = await orders.openOfAsset(ctx.dataSource.manager, scope(), assetId, tickOf('regular', q));
    expect(read.map((o) => [o.type, o.side, o.time_in_force, o.limit_price ?? o.stop_price])).toEqual([
      ['limit', 'buy', 'gtc', '100.05'],
      ['limit', 'sell', 'gtc', '99.95'],
      ['stop', 'buy', 'gtc', '100'],
      ['limit', 'buy', 'ioc', '100.04'],
      ['trailing_stop', 'buy', 'gtc', null],
    ]);
    // Outside the regular session only extended-hours orders can trade.
    expect(await orders.openOfAsset(ctx.dataSource.manager, scope(), assetId, tickOf('extended', q))).toEqual(
      [],
    );
  });
});
