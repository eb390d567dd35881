import Decimal from 'decimal.js';
import { minorUnits } from 'src/core/money/currencies';
import { Money } from 'src/core/money/money';
import type { HoldInput } from 'src/modules/ledger/ledger.types';
import type { PricedQuote } from 'src/modules/pricing/pricing.service';
import { fillCommission } from 'src/modules/trading/commissions';
import type { OrderRow } from 'src/modules/trading/order-types';
import { valueOf } from 'src/modules/trading/order-views';
import { ShortSaleError } from 'src/modules/trading/trading-errors';

/** Market orders hold this much above the quote, so a price that moves before the fill is covered. */
export const MARKET_COLLAR = new Money('0.05');

/**
 * What acceptance holds: for buys the most the order can cost plus its commission (limit price, or
 * the quote plus the market collar, and a bond's accrued interest per 100 face to settlement); for
 * sells the units to reserve (`free`: what the position has not reserved yet).
 */
export function holdAmount(
  order: OrderRow,
  quote: PricedQuote,
  free: Decimal | null,
  accruedPer100: Decimal | null,
): Decimal {
  const collar = MARKET_COLLAR.plus(1);
  if (order.side === 'sell') {
    // A notional sell reserves the units its notional is worth at the bid plus the collar, at most
    // what the account holds free.
    return order.quantity !== null
      ? new Money(order.quantity)
      : Decimal.min(free ?? 0, soldUnits(order, quote).times(collar).toDecimalPlaces(8, Decimal.ROUND_UP));
  }
  const dp = minorUnits(order.currency);
  if (order.notional !== null) {
    const commission = fillCommission(
      { type: order.commission_type, rate: order.commission_rate },
      {
        quantity: new Money(order.notional).div(quote.ask).times(collar),
        gross: new Money(order.notional),
        first: true,
        currency: order.currency,
      },
    );
    return new Money(order.notional).plus(commission);
  }
  const price =
    order.limit_price !== null
      ? new Money(order.limit_price)
      : order.type === 'trailing_stop'
        ? (order.trail_price !== null
            ? quote.ask.plus(order.trail_price)
            : quote.ask.times(new Money(order.trail_percent as string).div(100).plus(1))
          ).times(collar)
        : Decimal.max(quote.ask, order.stop_price ?? 0).times(collar);
  const gross = valueOf(order.asset_class, order.quantity as string, price);
  const accrued = accruedPer100 ? accruedPer100.times(order.quantity as string).div(100) : new Money(0);
  const cost = gross.plus(accrued).toDecimalPlaces(dp, Decimal.ROUND_UP);
  const commission = fillCommission(
    { type: order.commission_type, rate: order.commission_rate },
    { quantity: new Money(order.quantity as string), gross: cost, first: true, currency: order.currency },
  );
  return cost.plus(commission);
}

/** The units a notional sell needs at the bid. */
export function soldUnits(order: OrderRow, quote: PricedQuote): Decimal {
  return new Money(order.notional as string).div(quote.bid);
}

/** Whether what the position holds free covers a sell. */
export function covers(order: OrderRow, free: Decimal | null, quote: PricedQuote): boolean {
  return (free ?? new Money(0)).gte(soldQuantity(order, quote));
}

function soldQuantity(order: OrderRow, quote: PricedQuote): Decimal {
  return order.quantity !== null ? new Money(order.quantity) : soldUnits(order, quote);
}

/** 422 SVC-422-003 for a sell the position does not cover, naming quantity or notional. */
export function shortSale(order: OrderRow, free: Decimal | null, quote: PricedQuote): ShortSaleError {
  return new ShortSaleError(
    order.symbol,
    free,
    soldQuantity(order, quote),
    order.quantity !== null ? 'quantity' : 'notional',
  );
}

export function fundsParam(order: OrderRow): string {
  return order.notional !== null ? 'notional' : 'quantity';
}

/** A buy's cash hold: from the investor's cash to securities settlement, keyed by the order. */
export function cashHold(order: OrderRow, now: Date): HoldInput {
  return {
    tenantId: order.tenant_id,
    livemode: order.livemode,
    holdKey: `order:${order.id}`,
    kind: 'order',
    debit: { kind: 'investor_cash', ownerId: order.account_id, currency: order.currency },
    credit: { kind: 'securities_settlement', currency: order.currency },
    amount: new Money(order.hold_amount),
    at: now,
    reference: order.id,
  };
}
