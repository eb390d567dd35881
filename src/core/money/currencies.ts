/**
 * ISO 4217 currencies the service moves money in, with their minor units (decimals an amount may
 * carry). v1 does no FX: each wallet holds one currency.
 */
export const CURRENCY_MINOR_UNITS: Readonly<Record<string, number>> = {
  USD: 2,
  EUR: 2,
  GBP: 2,
  CHF: 2,
  CAD: 2,
  AUD: 2,
  NZD: 2,
  JPY: 0,
  KRW: 0,
  CNY: 2,
  HKD: 2,
  SGD: 2,
  INR: 2,
  SEK: 2,
  NOK: 2,
  DKK: 2,
  BRL: 2,
  MXN: 2,
  ZAR: 2,
  NGN: 2,
  KES: 2,
  GHS: 2,
  UGX: 0,
  TZS: 2,
  RWF: 0,
  EGP: 2,
  MAD: 2,
  XOF: 0,
  XAF: 0,
  BHD: 3,
  KWD: 3,
  JOD: 3,
  OMR: 3,
  TND: 3,
};

export const CURRENCIES: readonly string[] = Object.keys(CURRENCY_MINOR_UNITS);

export function isSupportedCurrency(code: string): boolean {
  return Object.prototype.hasOwnProperty.call(CURRENCY_MINOR_UNITS, code);
}

/**
 * Decimals an amount in this currency carries: the table above for currencies money moves in;
 * any other ISO 4217 code (an account's primary currency shown with a zero balance) from the
 * runtime's currency data. Throws for a code that is not a currency.
 */
export function minorUnits(currency: string): number {
  if (isSupportedCurrency(currency)) {
    return CURRENCY_MINOR_UNITS[currency];
  }
  return (
    new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2
  );
}
