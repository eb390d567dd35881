import Decimal from 'decimal.js';

/**
 * Money, quantities and prices are decimal strings on the wire and NUMERIC in PostgreSQL.
 * decimal.js does the arithmetic so no JavaScript float ever holds money.
 */
export const Money = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_EVEN });
export type Money = Decimal;

const DECIMAL_TEXT = /^-?\d{1,20}(\.\d{1,18})?$/;

export function isDecimalText(value: string): boolean {
  return DECIMAL_TEXT.test(value);
}

export function money(value: Decimal.Value): Decimal {
  return new Money(value);
}

/** Fixed-point text with `dp` decimals, e.g. toMoneyText('12.345', 2) === '12.35' (half-even). */
export function toMoneyText(value: Decimal.Value, dp = 2): string {
  return new Money(value).toFixed(dp);
}

/** Canonical text without trailing zeros beyond what is needed ('1.500' -> '1.5'). */
export function toDecimalText(value: Decimal.Value): string {
  return new Money(value).toFixed();
}
