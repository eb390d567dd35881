import Decimal from 'decimal.js';
import type { ActivityRow } from 'src/modules/activities/activity-types';

/** Which activity types each statement total adds up (signed net amounts). */
export const TOTAL_TYPES = {
  deposits: ['CSD'],
  withdrawals: ['CSW'],
  dividends: ['DIV'],
  withholding: ['DIVNRA'],
  interest: ['INT'],
  fees: ['FEE'],
} as const;

interface Lot {
  qty: Decimal;
  cost: Decimal;
}

/**
 * Realized gain or loss by activity id, at the weighted average cost of the position before it, as
 * positions keep their basis: buys add their principal (commissions apart), sells take out the
 * average cost of what they sold. Corporate actions follow the positions: a SPLIT changes the
 * quantity and keeps the cost; an NC or MA taking shares out hands their cost to the entry of the
 * same action bringing shares in (a symbol change, a stock merger's acquirer), and when none does
 * (a cash merger) the shares were sold for the activity's cash.
 */
export function realizedBySell(history: ActivityRow[]): Map<string, Decimal> {
  const basis = new Map<string, Lot>();
  const realized = new Map<string, Decimal>();
  const leaving = new Map<string, { id: string; cost: Decimal; cash: Decimal }>();
  const lotOf = (symbol: string): Lot => basis.get(symbol) ?? { qty: new Decimal(0), cost: new Decimal(0) };
  /** Takes `qty` out of a position at its average cost; answers that cost. */
  const takeOut = (symbol: string, qty: Decimal): Decimal => {
    const held = lotOf(symbol);
    if (held.qty.lte(0)) {
      return new Decimal(0);
    }
    const cost = qty.gte(held.qty) ? held.cost : held.cost.times(qty).div(held.qty);
    basis.set(symbol, { qty: held.qty.minus(qty), cost: held.cost.minus(cost) });
    return cost;
  };
  for (const a of history) {
    if (!a.symbol || a.qty === null || a.status === 'canceled') {
      continue;
    }
    const held = lotOf(a.symbol);
    const qty = new Decimal(a.qty);
    const cash = new Decimal(a.net_amount);
    if (a.activity_type === 'FILL' && qty.gt(0)) {
      basis.set(a.symbol, { qty: held.qty.plus(qty), cost: held.cost.plus(cash.abs()) });
    } else if (a.activity_type === 'FILL' && held.qty.gt(0)) {
      realized.set(a.id, cash.abs().minus(takeOut(a.symbol, qty.negated())));
    } else if (a.activity_type === 'SPLIT') {
      basis.set(a.symbol, { qty: held.qty.plus(qty), cost: held.cost });
    } else if ((a.activity_type === 'NC' || a.activity_type === 'MA') && a.corporate_action_id) {
      if (qty.lt(0)) {
        leaving.set(a.corporate_action_id, { id: a.id, cost: takeOut(a.symbol, qty.negated()), cash });
      } else {
        const from = leaving.get(a.corporate_action_id);
        leaving.delete(a.corporate_action_id);
        basis.set(a.symbol, { qty: held.qty.plus(qty), cost: held.cost.plus(from?.cost ?? 0) });
      }
    }
  }
  for (const sold of leaving.values()) {
    realized.set(sold.id, sold.cash.minus(sold.cost));
  }
  return realized;
}
