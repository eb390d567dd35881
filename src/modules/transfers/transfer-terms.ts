import Decimal from 'decimal.js';
import { minorUnits } from 'src/core/money/currencies';
import { Money } from 'src/core/money/money';
import type { TransferType } from 'src/modules/transfers/entities/transfer.entity';
import { TransferAmountError } from 'src/modules/transfers/transfer-errors';

/** A tenant's transfer terms (CLI `transfers:settings`); defaults: no fees, 1 to 1,000,000. */
export interface TransferTerms {
  depositFeeFlat: Decimal;
  depositFeeBps: number;
  withdrawalFeeFlat: Decimal;
  withdrawalFeeBps: number;
  minAmount: Decimal;
  maxAmount: Decimal;
}

export const DEFAULT_TERMS: TransferTerms = {
  depositFeeFlat: new Money(0),
  depositFeeBps: 0,
  withdrawalFeeFlat: new Money(0),
  withdrawalFeeBps: 0,
  minAmount: new Money(1),
  maxAmount: new Money(1_000_000),
};

/**
 * Checks a requested amount (already shaped like a decimal) for a currency and the tenant's
 * bounds; 400 naming `amount` (or the caller's field) otherwise.
 */
export function checkTransferAmount(
  raw: string,
  currency: string,
  terms: TransferTerms,
  param = 'amount',
): Decimal {
  const amount = new Money(raw);
  const decimals = minorUnits(currency);
  if (amount.decimalPlaces() > decimals) {
    throw TransferAmountError.tooManyDecimals(param, currency, decimals);
  }
  if (amount.lte(0)) {
    throw TransferAmountError.notPositive(param);
  }
  if (amount.lt(terms.minAmount) || amount.gt(terms.maxAmount)) {
    throw TransferAmountError.outOfBounds(param, terms.minAmount, terms.maxAmount, currency);
  }
  return amount;
}

/**
 * The fee of a transfer: flat plus basis points of the amount, rounded half-even to the currency's
 * minor units. It must leave a positive net amount (400 naming `amount` otherwise).
 */
export function transferFee(
  terms: TransferTerms,
  type: TransferType,
  amount: Decimal,
  currency: string,
  param = 'amount',
): { fee: Decimal; net: Decimal } {
  const flat = type === 'deposit' ? terms.depositFeeFlat : terms.withdrawalFeeFlat;
  const bps = type === 'deposit' ? terms.depositFeeBps : terms.withdrawalFeeBps;
  const decimals = minorUnits(currency);
  const fee = flat.plus(amount.times(bps).div(10_000)).toDecimalPlaces(decimals, Decimal.ROUND_HALF_EVEN);
  const net = amount.minus(fee);
  if (net.lte(0)) {
    throw TransferAmountError.notAboveFee(param, type, fee.toFixed(decimals), currency);
  }
  return { fee, net };
}
