import type Decimal from 'decimal.js';
import { ServiceError } from 'src/core/errors/service-error';

/** 400 naming the amount's field: an amount the currency, the tenant's bounds or the fee refuse. */
export class TransferAmountError extends ServiceError {
  private constructor(param: string, message: string) {
    super('SVC-400-001', message, param);
  }

  static tooManyDecimals(param: string, currency: string, decimals: number): TransferAmountError {
    return new TransferAmountError(param, `${currency} amounts carry at most ${decimals} decimals.`);
  }

  static notPositive(param: string): TransferAmountError {
    return new TransferAmountError(param, `${param} must be greater than zero.`);
  }

  static outOfBounds(param: string, min: Decimal, max: Decimal, currency: string): TransferAmountError {
    return new TransferAmountError(
      param,
      `${param} must be between ${min.toFixed()} and ${max.toFixed()} ${currency} per transfer.`,
    );
  }

  /** The fee would take the whole amount. */
  static notAboveFee(param: string, type: string, fee: string, currency: string): TransferAmountError {
    return new TransferAmountError(
      param,
      `${param} must be greater than the ${type} fee of ${fee} ${currency}.`,
    );
  }
}

/** 400 naming the currency's field: a transfer moves the bank account's currency only (no FX). */
export class TransferCurrencyError extends ServiceError {
  constructor(param: string, currency: string, fundingSourceId: string) {
    super(
      'SVC-400-001',
      `${param} must be ${currency}, the currency of bank account ${fundingSourceId} (no FX).`,
      param,
    );
  }
}

/** 409 SVC-409-001: the transaction's status does not allow the step asked for. */
export class TransferStatusError extends ServiceError {
  constructor(transactionId: string, status: string, allowed: readonly string[], target: string) {
    super(
      'SVC-409-001',
      `Transaction ${transactionId} is ${status}; only a ${allowed.join(' or ')} transaction can ` +
        `become ${target}.`,
    );
  }
}
