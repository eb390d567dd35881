import { randomUUID } from 'node:crypto';
import Decimal from 'decimal.js';
import fc from 'fast-check';
import type { EntityManager } from 'typeorm';
import { OrdersRepository, TickQuote } from 'src/modules/trading/orders.repository';
import { orderRow } from '../../support/order-row';
import type { ServiceContext } from '../../support/service-context';

/**
 * Open orders of every shape around one quote, for the tick filter's property spec
 * (order-tick-filter.medium-spec.ts): the shapes, their generators and their rows.
 */

export type Anchored = { anchor: 'last' | 'bid' | 'ask'; cents: number };
export type Quote = ReturnType<typeof quoteOf>;

export interface Shape {
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

export const price = fc.integer({ min: 9000, max: 11000 }).map((cents) => cents / 100);

const anchored: fc.Arbitrary<Anchored> = fc.record({
  anchor: fc.constantFrom('last' as const, 'bid' as const, 'ask' as const),
  cents: fc.integer({ min: -3, max: 3 }),
});

const at = (q: Quote, p: Anchored) => q[p.anchor].plus(new Decimal(p.cents).div(100)).toFixed(2);

export const shape: fc.Arbitrary<Shape> = fc.record({
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

export function quoteOf(last: number, spreadCents: number) {
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

export function tickOf(phase: 'regular' | 'extended', q: Quote): TickQuote {
  return { phase, last: q.last.toFixed(), bid: q.bid.toFixed(), ask: q.ask.toFixed() };
}

/** An ACTIVE account of the tenant (straight into its table); its id. */
export async function insertAccount(ctx: ServiceContext, tenantId: string): Promise<string> {
  const accountId = randomUUID();
  await ctx.dataSource.query(
    `INSERT INTO investment_accounts (id, tenant_id, livemode, investor_id, account_number, status,
       enabled_assets, email_address, phone_number, address, identity, disclosures)
     VALUES ($1, $2, false, 'inv_tickfilter', 'TF0001', 'ACTIVE', '{us_equity}', 'tick@example.com',
       '+14155550123', '{}', '{}', '{}')`,
    [accountId, tenantId],
  );
  return accountId;
}

/** One open order per shape on the asset, its prices placed around the quote. */
export async function insertShapes(
  orders: OrdersRepository,
  manager: EntityManager,
  owner: { tenantId: string; accountId: string },
  assetId: string,
  shapes: Shape[],
  q: Quote,
): Promise<void> {
  const now = new Date();
  for (const [i, s] of shapes.entries()) {
    const limited = s.type === 'limit' || s.type === 'stop_limit';
    const stopped = s.type === 'stop' || s.type === 'stop_limit';
    const trailing = s.type === 'trailing_stop';
    await orders.insert(
      manager,
      orderRow({
        id: `ord_tf_${randomUUID()}`,
        tenant_id: owner.tenantId,
        investor_id: 'inv_tickfilter',
        account_id: owner.accountId,
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
