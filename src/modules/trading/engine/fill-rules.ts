import Decimal from 'decimal.js';
import { Money } from 'src/core/money/money';
import { isBondClass, OrderRow, QuoteView } from 'src/modules/trading/order-types';
import { assertUnreachable } from 'src/core/errors/assert-unreachable';

/**
 * When an order is evaluated: a price tick or the arrival of an order in a `regular`, `pre`/`post`
 * (`extended`) or `closed` session, or the session events `open` (the opening auction) and `close`.
 */
export type Phase = 'regular' | 'extended' | 'closed' | 'open' | 'close';

export type Decision =
  | { kind: 'none'; waterMark?: Decimal; triggered?: boolean }
  | {
      kind: 'fill';
      quantity: Decimal;
      price: Decimal;
      /** Notional orders: the cash amount this fill spends or raises. */
      notional?: Decimal;
      waterMark?: Decimal;
      triggered?: boolean;
      /** ioc: what the quote could not fill is canceled after this fill. */
      cancelRest?: string;
    }
  | { kind: 'cancel'; reason: string };

/** Quantities are kept to 8 decimals; a notional order buys whole units of 1e-8, rounded down. */
export const QTY_DECIMALS = 8;

export function remainingQuantity(order: OrderRow): Decimal {
  return order.quantity === null ? new Money(0) : new Money(order.quantity).minus(order.filled_quantity);
}

/** Trailing stops: the stop follows the best price seen (high-water mark for sells, low for buys). */
export function trailingStop(order: OrderRow, waterMark: Decimal): Decimal {
  const sell = order.side === 'sell';
  if (order.trail_price !== null) {
    return sell ? waterMark.minus(order.trail_price) : waterMark.plus(order.trail_price);
  }
  const fraction = new Money(order.trail_percent ?? 0).div(100);
  return sell ? waterMark.times(new Money(1).minus(fraction)) : waterMark.times(fraction.plus(1));
}

function eligible(order: OrderRow, phase: Phase): boolean {
  switch (phase) {
    case 'closed':
      return false;
    case 'extended':
      return order.extended_hours;
    case 'open':
      return order.time_in_force !== 'cls';
    case 'close':
      // Only cls orders execute at the closing auction; day orders are canceled after it.
      return order.time_in_force === 'cls';
    case 'regular':
      return order.time_in_force !== 'opg' && order.time_in_force !== 'cls';
    default:
      return assertUnreachable(phase, 'phase');
  }
}

/** Stop and trailing-stop state after this quote: the water mark and whether the stop has triggered. */
function stopState(
  order: OrderRow,
  quote: QuoteView,
  phase: Phase,
): { waterMark?: Decimal; triggered: boolean } {
  if (
    order.triggered ||
    (order.type !== 'stop' && order.type !== 'stop_limit' && order.type !== 'trailing_stop')
  ) {
    return { triggered: order.triggered };
  }
  const buy = order.side === 'buy';
  if (order.type === 'trailing_stop') {
    // Trailing stops move and trigger in the regular session only (Alpaca's rule).
    if (phase !== 'regular' && phase !== 'open' && phase !== 'close') {
      return { triggered: false };
    }
    const previous = order.water_mark === null ? quote.last : new Money(order.water_mark);
    const waterMark = buy ? Decimal.min(previous, quote.last) : Decimal.max(previous, quote.last);
    const stop = trailingStop(order, waterMark);
    return { waterMark, triggered: buy ? quote.last.gte(stop) : quote.last.lte(stop) };
  }
  const stop = new Money(order.stop_price as string);
  return { triggered: buy ? quote.last.gte(stop) : quote.last.lte(stop) };
}

/**
 * The sandbox's deterministic fill rule (docs/decisions.md, Trading): a buy executes at the ask and
 * a sell at the bid when the order is marketable (market orders always; limits when the quote is at
 * or better than the limit; stops once triggered by the last price). A fill takes at most the quote's
 * displayed size (askSize for buys, bidSize for sells); the rest waits for later ticks (partial fills),
 * except ioc (the rest is canceled) and fok (nothing fills unless all can). Auctions (opg at the open,
 * cls at the close), notional orders and bonds fill in full at the quote.
 */
export function decide(order: OrderRow, quote: QuoteView, phase: Phase): Decision {
  if (!eligible(order, phase)) {
    return { kind: 'none' };
  }
  const buy = order.side === 'buy';
  const { waterMark, triggered } = stopState(order, quote, phase);
  const changes = {
    ...(waterMark ? { waterMark } : {}),
    ...(triggered !== order.triggered ? { triggered } : {}),
  };
  const isStop = order.type === 'stop' || order.type === 'stop_limit' || order.type === 'trailing_stop';
  const price = buy ? quote.ask : quote.bid;
  const limited = order.type === 'limit' || order.type === 'stop_limit';
  const marketable =
    (!isStop || triggered) &&
    (!limited || (buy ? price.lte(order.limit_price as string) : price.gte(order.limit_price as string)));
  const auction =
    (phase === 'open' && order.time_in_force === 'opg') ||
    (phase === 'close' && order.time_in_force === 'cls');
  const immediate = order.time_in_force === 'ioc' || order.time_in_force === 'fok';
  if (!marketable) {
    if (auction) {
      return {
        kind: 'cancel',
        reason: `not marketable at the ${phase === 'open' ? 'opening' : 'closing'} auction`,
      };
    }
    if (immediate) {
      return { kind: 'cancel', reason: `${order.time_in_force}: not marketable at the quote` };
    }
    return { kind: 'none', ...changes };
  }
  if (order.notional !== null) {
    const quantity = new Money(order.notional).div(price).toDecimalPlaces(QTY_DECIMALS, Decimal.ROUND_DOWN);
    if (quantity.lte(0)) {
      return { kind: 'cancel', reason: 'notional buys less than the smallest quantity at the quote' };
    }
    return { kind: 'fill', quantity, price, notional: new Money(order.notional), ...changes };
  }
  const remaining = remainingQuantity(order);
  const size = buy ? quote.askSize : quote.bidSize;
  const unlimited = auction || isBondClass(order.asset_class) || size.lte(0);
  const quantity = unlimited ? remaining : Decimal.min(remaining, size);
  if (order.time_in_force === 'fok' && quantity.lt(remaining)) {
    return {
      kind: 'cancel',
      reason: `fok: the quote shows ${size.toFixed()} of the ${remaining.toFixed()} needed`,
    };
  }
  const cancelRest =
    order.time_in_force === 'ioc' && quantity.lt(remaining)
      ? `ioc: ${remaining.minus(quantity).toFixed()} not fillable at the quote`
      : undefined;
  return { kind: 'fill', quantity, price, ...changes, ...(cancelRest ? { cancelRest } : {}) };
}

/** Whether a decision changes the order (a fill, a cancel, a moved water mark or a triggered stop). */
export function changes(order: OrderRow, decision: Decision): boolean {
  if (decision.kind !== 'none') {
    return true;
  }
  return (
    (decision.waterMark !== undefined && !decision.waterMark.eq(order.water_mark ?? NaN)) ||
    decision.triggered !== undefined
  );
}
