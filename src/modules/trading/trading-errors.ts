import Decimal from 'decimal.js';
import { ServiceError } from 'src/core/errors/service-error';
import { Money } from 'src/core/money/money';

/** 422 SVC-422-006 naming symbol: the asset does not trade here, or not for this account. */
export class AssetNotTradableError extends ServiceError {
  private constructor(message: string) {
    super('SVC-422-006', message, 'symbol');
  }

  /** The asset is not tradable, not active, or of a class no account trades. */
  static notTradable(symbol: string): AssetNotTradableError {
    return new AssetNotTradableError(
      `${symbol} is not tradable. Pick a tradable asset from /v1/assets/search.`,
    );
  }

  /** The asset's class needs an enabled_assets entry the account lacks. */
  static notEnabled(symbol: string, needs: string, enabled: readonly string[]): AssetNotTradableError {
    return new AssetNotTradableError(
      `${symbol} is ${needs}, which is not in the account's enabled_assets (${enabled.join(', ')}). Add ${needs} to enabled_assets first.`,
    );
  }

  /** Crypto needs the account's crypto_status ACTIVE. */
  static cryptoNotActive(cryptoStatus: string): AssetNotTradableError {
    return new AssetNotTradableError(`The account's crypto_status is ${cryptoStatus}; crypto needs ACTIVE.`);
  }
}

/** 422 SVC-422-003: the account holds fewer unreserved units than it would give up. */
export class InsufficientPositionError extends ServiceError {
  constructor(message: string, param: string) {
    super('SVC-422-003', message, param);
  }
}

/** A sell of more than the position holds free: cash accounts do not sell short. */
export class ShortSaleError extends InsufficientPositionError {
  constructor(symbol: string, free: Decimal | null, selling: Decimal, param: 'quantity' | 'notional') {
    super(
      `The account holds ${(free ?? new Money(0)).toFixed()} ${symbol} not already reserved by open sell orders; it cannot sell ${selling.toDecimalPlaces(8).toFixed()} (no short selling in cash accounts).`,
      param,
    );
  }
}

/** 422 SVC-422-004 naming time_in_force: the market's session does not take it now. */
export class MarketClosedForTimeInForceError extends ServiceError {
  constructor(message: string) {
    super('SVC-422-004', message, 'time_in_force');
  }
}

/** 422 SVC-422-005 naming quantity: a bond's face value is not a multiple of its min_increment. */
export class BondIncrementError extends ServiceError {
  constructor(step: Decimal, quantity: Decimal) {
    super(
      'SVC-422-005',
      `quantity is face value and must be a multiple of ${step.toFixed()} (min_increment), e.g. ${step.times(Decimal.max(1, quantity.div(step).floor())).toFixed()}.`,
      'quantity',
    );
  }
}

/** 400 naming client_order_id: another order of the account already has it. */
export class ClientOrderIdTakenError extends ServiceError {
  constructor(clientOrderId: string) {
    super(
      'SVC-400-001',
      `client_order_id '${clientOrderId}' is already used by an order of this account: send a new one.`,
      'client_order_id',
    );
  }
}

/** 409 SVC-409-001: the order has ended (filled, canceled or rejected), so it cannot be canceled. */
export class OrderNotOpenError extends ServiceError {
  constructor(orderId: string, status: string) {
    super(
      'SVC-409-001',
      `Order ${orderId} is ${status}; only accepted or partially_filled orders can be canceled.`,
    );
  }
}

/**
 * A fill whose cash rounds to nothing in the currency's minor units (a fractional remainder of
 * 1e-8 units, say): posting it would hand over units for no money, so the engine ends the order
 * instead (docs/decisions.md, Trading: the fill's value). The engine catches it; its code is the one
 * placement answers for an order worth less than a minor unit (400 naming quantity).
 */
export class DustFillError extends ServiceError {
  constructor(readonly currency: string) {
    super('SVC-400-001', `The fill is worth less than one minor unit of ${currency}.`, 'quantity');
  }
}
