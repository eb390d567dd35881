import type Decimal from 'decimal.js';
import type { ActivityInput } from 'src/modules/activities/activity-types';
import type { OrderRow } from 'src/modules/trading/order-types';

export interface FillFacts {
  executionSequence: number;
  quantity: Decimal;
  price: Decimal;
  /** Cash of the fill before commission: principal plus accrued interest of a bond. */
  cash: Decimal;
  commission: Decimal;
  at: Date;
}

/**
 * The activities of one execution (docs/decisions.md, Activities): a `FILL` carrying the fill's cash
 * (negative for a buy) and position change, and its commission as a `FEE`, so the two sum to the
 * fill journal's effect on the investor's cash.
 */
export function fillActivities(order: OrderRow, fill: FillFacts): ActivityInput[] {
  const buy = order.side === 'buy';
  const key = `order:${order.id}:fill:${fill.executionSequence}`;
  const common = { accountId: order.account_id, at: fill.at, currency: order.currency, orderId: order.id };
  const activities: ActivityInput[] = [
    {
      ...common,
      key,
      type: 'FILL',
      netAmount: buy ? fill.cash.negated() : fill.cash,
      symbol: order.symbol,
      qty: buy ? fill.quantity : fill.quantity.negated(),
      price: fill.price,
      side: order.side,
      description: `${buy ? 'Bought' : 'Sold'} ${fill.quantity.toFixed()} ${order.symbol} at ${fill.price.toFixed()}`,
    },
  ];
  if (fill.commission.gt(0)) {
    activities.push({
      ...common,
      key: `${key}:commission`,
      type: 'FEE',
      netAmount: fill.commission.negated(),
      symbol: order.symbol,
      description: `Commission on ${order.symbol} ${order.side}`,
    });
  }
  return activities;
}
