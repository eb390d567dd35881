import Decimal from 'decimal.js';
import { minorUnits } from 'src/core/money/currencies';
import { Money } from 'src/core/money/money';

/** The currencies conversions move between: the trading currencies of the listed markets. */
export const FX_CURRENCIES = ['USD', 'NGN', 'KES'] as const;
export type FxCurrency = (typeof FX_CURRENCIES)[number];

export function isFxCurrency(value: string): value is FxCurrency {
  return (FX_CURRENCIES as readonly string[]).includes(value);
}

/** Rates (to per from) carry 8 decimals, rounded half-even (docs/decisions.md, FX conversions). */
export const RATE_DECIMALS = 8;

export function roundRate(value: Decimal.Value): Decimal {
  return new Money(value).toDecimalPlaces(RATE_DECIMALS, Decimal.ROUND_HALF_EVEN);
}

/** The rate a partner's investor gets: mid × (1 − spread_bps / 10,000), 8 decimals half-even. */
export function customerRate(midRate: Decimal.Value, spreadBps: number): Decimal {
  return roundRate(new Money(midRate).times(new Money(1).minus(new Money(spreadBps).div(10_000))));
}

export interface FxAmounts {
  fromAmount: Decimal;
  toAmount: Decimal;
  /** What the spread kept, in to_currency: the mid-rate value of from_amount (to its minor unit) − to_amount. */
  spreadAmount: Decimal;
}

/**
 * The two amounts of a conversion at `rate`: given `amount` (to sell), to_amount = amount × rate
 * rounded down to the minor unit of to_currency; given `to_amount` (to buy), from_amount =
 * to_amount ÷ rate rounded up to the minor unit of from_currency. The spread the partner keeps is
 * the rest of from_amount's value at the mid rate, never negative.
 */
export function fxAmounts(input: {
  fromCurrency: string;
  toCurrency: string;
  midRate: Decimal;
  rate: Decimal;
  amount?: Decimal;
  toAmount?: Decimal;
}): FxAmounts {
  const fromDp = minorUnits(input.fromCurrency);
  const toDp = minorUnits(input.toCurrency);
  const fromAmount =
    input.amount ?? input.toAmount!.div(input.rate).toDecimalPlaces(fromDp, Decimal.ROUND_UP);
  const toAmount = input.toAmount ?? fromAmount.times(input.rate).toDecimalPlaces(toDp, Decimal.ROUND_DOWN);
  const atMid = fromAmount.times(input.midRate).toDecimalPlaces(toDp, Decimal.ROUND_HALF_EVEN);
  const spreadAmount = Decimal.max(atMid.minus(toAmount), 0);
  return { fromAmount, toAmount, spreadAmount: new Money(spreadAmount) };
}
