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

/** Each symbol's units and total cost, as positions keep their basis (weighted average cost). */
class AverageCostBook {
  private readonly lots = new Map<string, Lot>();

  lot(symbol: string): Lot {
    return this.lots.get(symbol) ?? { qty: new Decimal(0), cost: new Decimal(0) };
  }

  add(symbol: string, qty: Decimal, cost: Decimal.Value): void {
    const held = this.lot(symbol);
    this.lots.set(symbol, { qty: held.qty.plus(qty), cost: held.cost.plus(cost) });
  }

  /**
   * Takes `qty` out of the position at the average cost of `of` (by default the whole position;
   * a CIL's, the units its action left); answers that cost.
   */
  takeOut(symbol: string, qty: Decimal, of: Lot = this.lot(symbol)): Decimal {
    if (of.qty.lte(0)) {
      return new Decimal(0);
    }
    const cost = qty.gte(of.qty) ? of.cost : of.cost.times(qty).div(of.qty);
    this.add(symbol, qty.negated(), cost.negated());
    return cost;
  }
}

/**
 * Realized gain or loss by activity id, at the weighted average cost of the position before it, as
 * positions keep their basis: buys add their principal (commissions apart), sells take out the
 * average cost of what they sold. Corporate actions follow the positions: a SPLIT changes the
 * quantity and keeps the cost; an NC or MA taking shares out hands their cost to the entry of the
 * same action bringing shares in (a symbol change, a stock merger's acquirer), and when none does
 * (a cash merger) the shares were sold for the activity's cash. A CIL is a sale of the fraction for
 * its cash, at the average cost of the units its action left (the split position, the acquirer's
 * shares received): the basis the action took out of the position with the fraction.
 */
export function realizedBySell(history: ActivityRow[]): Map<string, Decimal> {
  const book = new AverageCostBook();
  const realized = new Map<string, Decimal>();
  const leaving = new Map<string, { id: string; cost: Decimal; cash: Decimal }>();
  /** Per corporate action, the units it left and their cost, of which its CIL sells the fraction. */
  const converted = new Map<string, Lot>();
  for (const a of history) {
    if (!a.symbol || a.qty === null || a.status === 'canceled') {
      continue;
    }
    const held = book.lot(a.symbol);
    const qty = new Decimal(a.qty);
    const cash = new Decimal(a.net_amount);
    const action = a.corporate_action_id;
    if (a.activity_type === 'FILL' && qty.gt(0)) {
      book.add(a.symbol, qty, cash.abs());
    } else if ((a.activity_type === 'FILL' || a.activity_type === 'CIL') && qty.lt(0) && held.qty.gt(0)) {
      const of = a.activity_type === 'CIL' && action ? converted.get(action) : undefined;
      realized.set(a.id, cash.abs().minus(book.takeOut(a.symbol, qty.negated(), of)));
    } else if (a.activity_type === 'SPLIT') {
      book.add(a.symbol, qty, 0);
      if (action) {
        converted.set(action, book.lot(a.symbol));
      }
    } else if ((a.activity_type === 'NC' || a.activity_type === 'MA') && action) {
      if (qty.lt(0)) {
        leaving.set(action, { id: a.id, cost: book.takeOut(a.symbol, qty.negated()), cash });
      } else {
        const cost = leaving.get(action)?.cost ?? new Decimal(0);
        leaving.delete(action);
        book.add(a.symbol, qty, cost);
        converted.set(action, { qty, cost });
      }
    }
  }
  for (const sold of leaving.values()) {
    realized.set(sold.id, sold.cash.minus(sold.cost));
  }
  return realized;
}
