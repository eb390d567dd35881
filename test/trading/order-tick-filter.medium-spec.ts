import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { changes, decide } from 'src/modules/trading/engine/fill-rules';
import { OrdersRepository } from 'src/modules/trading/orders.repository';
import { madeBeforeAll } from '../support/made-before-all';
import { createServiceContext, describeLocal } from '../support/service-context';
import { insertAccount, insertShapes, price, quoteOf, shape, tickOf } from './support/tick-orders';
import type { Quote, Shape } from './support/tick-orders';

/**
 * A price tick reads only the open orders its quote may change. Whatever the orders and the quote,
 * every order `decide` would change (fill, cancel, water mark, trigger) must be among those read.
 */
describeLocal('Open orders a price tick reads (repository on a real database)', () => {
  const ctx = madeBeforeAll('The service context', () => createServiceContext([]));
  const orders = madeBeforeAll('The repository', () => Promise.resolve(new OrdersRepository(ctx.dataSource)));
  let tenantId: string;
  let accountId: string;
  beforeAll(async () => {
    tenantId = await ctx.createTenant();
    accountId = await insertAccount(ctx, tenantId);
  });

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

  const scope = () => ({ tenantId, livemode: false });

  function insert(assetId: string, shapes: Shape[], q: Quote): Promise<void> {
    return insertShapes(orders, ctx.dataSource.manager, { tenantId, accountId }, assetId, shapes, q);
  }
});
