import Decimal from 'decimal.js';
import { minorUnits } from 'src/core/money/currencies';
import { Money } from 'src/core/money/money';
import type { JournalInput } from 'src/modules/ledger/ledger.types';
import { fillCommission } from 'src/modules/trading/commissions';
import type { ExecutionRow, OrderRow, OrderStatus } from 'src/modules/trading/order-types';
import { valueOf } from 'src/modules/trading/order-views';
import { DustFillError } from 'src/modules/trading/trading-errors';

export interface FillInput {
  quantity: Decimal;
  price: Decimal;
  source: string;
  /** ioc: the rest is canceled after this fill, with this reason. */
  cancelRest?: string;
}

/** The money of one fill, in the currency's minor units (half up). */
export interface FillAmounts {
  /** Units filled: a sell never more than it still reserves. */
  quantity: Decimal;
  /** Principal: quantity × price (per 100 of face for bonds). */
  gross: Decimal;
  /** Principal plus a bond's accrued interest, rounded once from the unrounded sum. */
  cash: Decimal;
  /** Zero for a sell whose commission would take all its cash. */
  commission: Decimal;
  /** The investor's cash moves by this: a buy pays cash + commission, a sell receives cash − commission. */
  net: Decimal;
}

/**
 * The amounts of one fill of `order` at `price`. `accruedPer100` is a bond's accrued interest per 100
 * of face to the order's settlement date (null for everything else). Throws DustFillError when the
 * fill's cash rounds to nothing.
 */
export function fillAmounts(
  order: OrderRow,
  fill: { quantity: Decimal; price: Decimal },
  accruedPer100: Decimal | null,
): FillAmounts {
  const dp = minorUnits(order.currency);
  const buy = order.side === 'buy';
  // Never sell more than the order reserved (a notional sell's estimate).
  const quantity = buy
    ? fill.quantity
    : Decimal.min(fill.quantity, new Money(order.hold_amount).minus(order.hold_used));
  const rawGross = valueOf(order.asset_class, quantity, fill.price);
  const gross = rawGross.toDecimalPlaces(dp, Decimal.ROUND_HALF_UP);
  const accrued = accruedPer100 ? accruedPer100.times(quantity).div(100) : new Money(0);
  const cash = rawGross.plus(accrued).toDecimalPlaces(dp, Decimal.ROUND_HALF_UP);
  if (cash.lte(0)) {
    throw new DustFillError(order.currency);
  }
  let commission = fillCommission(
    { type: order.commission_type, rate: order.commission_rate },
    { quantity, gross, first: order.fill_count === 0, currency: order.currency },
  );
  if (!buy && commission.gte(cash)) {
    commission = new Money(0);
  }
  return { quantity, gross, cash, commission, net: buy ? cash.plus(commission) : cash.minus(commission) };
}

/** A fill worked out in full: its amounts, its place among the order's fills and the order after it. */
export interface FillPlan {
  amounts: FillAmounts;
  /** The order's fill sequence of this fill (1 for the first). */
  sequence: number;
  /** Nothing more fills after this one: filled in full, a notional order, or ioc's rest canceled. */
  done: boolean;
  /** A buy: the part of its cost taken from the order's cash hold (the rest needs available cash). */
  fromHold: Decimal;
  /** The order row as the fill leaves it. */
  order: OrderRow;
}

/** What one fill does to its order; pure, so the engine's writes only carry it out. */
export function planFill(
  order: OrderRow,
  input: FillInput,
  accruedPer100: Decimal | null,
  at: Date,
): FillPlan {
  const amounts = fillAmounts(order, input, accruedPer100);
  const { quantity } = amounts;
  const filled = new Money(order.filled_quantity).plus(quantity);
  const done = order.notional !== null || Boolean(input.cancelRest) || filled.gte(order.quantity as string);
  const sequence = order.fill_count + 1;
  const { fromHold, holdUsed } = holdUse(order, amounts, done);
  const status: OrderStatus = input.cancelRest ? 'canceled' : done ? 'filled' : 'partially_filled';
  const updated: OrderRow = {
    ...order,
    status,
    // A notional order fills once: its quantity is what that fill bought or sold.
    filled_quantity: order.notional !== null && status === 'filled' ? quantity.toFixed() : filled.toFixed(),
    filled_notional: new Money(order.filled_notional).plus(quantity.times(input.price)).toFixed(),
    fill_count: sequence,
    price_decimals: Math.max(order.price_decimals, input.price.decimalPlaces()),
    commission: new Money(order.commission).plus(amounts.commission).toFixed(),
    hold_used: holdUsed.toFixed(),
    updated_at: at,
    filled_at: status === 'filled' ? at : order.filled_at,
    canceled_at: input.cancelRest ? at : order.canceled_at,
    cancel_reason: input.cancelRest ?? order.cancel_reason,
  };
  return { amounts, sequence, done, fromHold, order: updated };
}

/**
 * How much of the order's hold the fill uses. A buy takes its cost from what is still held (all of
 * the hold once done, releasing the rest); a sell uses the units it sold.
 */
function holdUse(
  order: OrderRow,
  amounts: FillAmounts,
  done: boolean,
): { fromHold: Decimal; holdUsed: Decimal } {
  const used = new Money(order.hold_used);
  if (order.side === 'sell') {
    return { fromHold: new Money(0), holdUsed: used.plus(amounts.quantity) };
  }
  const pending = new Money(order.hold_amount).minus(used);
  const fromHold = Decimal.min(amounts.net, pending);
  if (fromHold.lte(0)) {
    return { fromHold: new Money(0), holdUsed: used };
  }
  return { fromHold, holdUsed: done ? new Money(order.hold_amount) : used.plus(fromHold) };
}

/**
 * The fill's journal: a buy debits the investor's cash by cash + commission and credits securities
 * settlement with the cash; a sell the other way round, less the commission. The commission goes to
 * commissions revenue. Keyed by the order's fill sequence, so a fill is never posted twice.
 */
export function fillJournal(
  order: OrderRow,
  plan: Pick<FillPlan, 'amounts' | 'sequence'>,
  at: Date,
): Omit<JournalInput, 'tenantId' | 'livemode'> {
  const { cash, commission, net } = plan.amounts;
  const currency = order.currency;
  const investorCash = { kind: 'investor_cash' as const, ownerId: order.account_id, currency };
  const settlement = { kind: 'securities_settlement' as const, currency };
  const buy = order.side === 'buy';
  return {
    journalKey: `order:${order.id}:fill:${plan.sequence}`,
    kind: 'order.fill',
    effectiveAt: at,
    reference: order.id,
    entries: [
      buy
        ? { account: investorCash, direction: 'debit', amount: net }
        : { account: settlement, direction: 'debit', amount: cash },
      buy
        ? { account: settlement, direction: 'credit', amount: cash }
        : { account: investorCash, direction: 'credit', amount: net },
      ...(commission.gt(0)
        ? [
            {
              account: { kind: 'commissions_revenue' as const, currency },
              direction: 'credit' as const,
              amount: commission,
            },
          ]
        : []),
    ],
  };
}

/** The execution row of a fill. */
export function executionOf(
  order: OrderRow,
  plan: Pick<FillPlan, 'amounts' | 'sequence'>,
  input: FillInput,
  id: string,
  at: Date,
): ExecutionRow {
  const { quantity, gross, cash, commission, net } = plan.amounts;
  return {
    id,
    order_id: order.id,
    sequence: plan.sequence,
    account_id: order.account_id,
    asset_id: order.asset_id,
    symbol: order.symbol,
    side: order.side,
    quantity: quantity.toFixed(),
    price: input.price.toFixed(),
    gross_amount: gross.toFixed(),
    accrued_interest: cash.minus(gross).toFixed(),
    commission: commission.toFixed(),
    net_amount: net.toFixed(),
    price_source: input.source,
    created_at: at,
  };
}
