import Decimal from 'decimal.js';
import { assertUnreachable } from 'src/core/errors/assert-unreachable';
import { ServiceError } from 'src/core/errors/service-error';
import { minorUnits } from 'src/core/money/currencies';
import { Money } from 'src/core/money/money';
import type { TradingAccount } from 'src/modules/accounts/accounts.service';
import type { EnabledAsset } from 'src/modules/accounts/entities/account-types';
import type { AssetQueryRow } from 'src/modules/assets/asset-queries';
import { clock, getMarket } from 'src/modules/markets/calendar';
import type { PlaceOrderDto } from 'src/modules/trading/dto/place-order.dto';
import { valueOf } from 'src/modules/trading/order-views';
import type { AssetClass } from 'src/modules/pricing/price-source';
import {
  AssetNotTradableError,
  BondIncrementError,
  MarketClosedForTimeInForceError,
} from 'src/modules/trading/trading-errors';

const invalid = (param: string, message: string) => ServiceError.invalid(param, message);

/** Which enabled_assets entry an asset class needs (docs/decisions.md, Trading and positions); null: not tradable here. */
export function enabledAssetOf(assetClass: AssetClass): EnabledAsset | null {
  switch (assetClass) {
    case 'equity':
      return 'us_equity';
    case 'etf':
      return 'etf';
    case 'bond':
    case 'bill':
    case 'note':
      return 'bonds';
    case 'cryptocurrency':
      return 'crypto';
    case 'mutual_fund':
      return 'mutual_funds';
    case 'derivative':
    case 'commodity':
    case 'real_estate':
    case 'cash':
      return null;
    default:
      return assertUnreachable(assetClass, 'asset class');
  }
}

/**
 * 422 SVC-422-006 naming symbol unless the asset trades here and the account may trade it: the asset
 * tradable and active, its class among the account's enabled_assets, crypto only with crypto_status
 * ACTIVE.
 */
export function checkTradable(
  asset: AssetQueryRow,
  account: Pick<TradingAccount, 'enabled_assets' | 'crypto_status'>,
): void {
  const needs = enabledAssetOf(asset.class);
  if (!asset.tradable || asset.status !== 'active' || needs === null) {
    throw AssetNotTradableError.notTradable(asset.symbol);
  }
  if (!account.enabled_assets.includes(needs)) {
    throw AssetNotTradableError.notEnabled(asset.symbol, needs, account.enabled_assets);
  }
  if (needs === 'crypto' && account.crypto_status !== 'ACTIVE') {
    throw AssetNotTradableError.cryptoNotActive(account.crypto_status);
  }
}

/** 422 SVC-422-004 when the market's session does not allow this time_in_force now. */
export function checkSessionForTimeInForce(body: PlaceOrderDto, market: string, now: Date): void {
  const definition = getMarket(market);
  const tif = body.time_in_force;
  if (!definition?.holiday_calendar || tif === 'day' || tif === 'gtc') {
    return;
  }
  const state = clock(market, now);
  const closed = (message: string) => new MarketClosedForTimeInForceError(message);
  const tradingNow =
    state.session === 'regular' || (body.extended_hours === true && state.session !== 'closed');
  if ((tif === 'ioc' || tif === 'fok') && !tradingNow) {
    throw closed(
      `${market} is ${state.session === 'closed' ? 'closed' : `in its ${state.session} session`}: ${tif} orders need an open session. Send day or gtc to wait for the open.`,
    );
  }
  const untilOpen = state.next_open ? Date.parse(state.next_open) - now.getTime() : Infinity;
  if (tif === 'opg' && (state.session === 'regular' || state.session === 'post' || untilOpen <= 2 * 60_000)) {
    throw closed(
      `opg orders are accepted until 2 minutes before the open and again after the post-market session. Send day to trade in the session.`,
    );
  }
  const untilClose = state.next_close ? Date.parse(state.next_close) - now.getTime() : Infinity;
  if (
    tif === 'cls' &&
    ((state.session === 'regular' && untilClose <= 10 * 60_000) || state.session === 'post')
  ) {
    throw closed(
      `cls orders are refused from 10 minutes before the close until the post-market session ends. Send day, or cls again later.`,
    );
  }
}

/** Bond quantity (face value) must be a multiple of min_increment: 422 SVC-422-005. */
export function checkBondIncrement(quantity: string, minIncrement: unknown): void {
  const step = new Money(String(minIncrement ?? '1000'));
  if (step.gt(0) && !new Money(quantity).mod(step).isZero()) {
    throw new BondIncrementError(step, new Money(quantity));
  }
}

/** One minor unit of a currency as text: "0.01 USD", "1 JPY". */
export function minorUnitText(currency: string): string {
  return `${new Money(1).div(new Money(10).pow(minorUnits(currency))).toFixed()} ${currency}`;
}

/**
 * 400 naming quantity when the order is worth less than one minor unit of its currency at the
 * price it names (limit, else stop; a sell's limit only above the bid) or, without one, at the
 * quote's side it would trade: its fill would round to no money (docs/decisions.md, Trading).
 */
export function checkOrderValue(
  body: PlaceOrderDto,
  asset: AssetQueryRow,
  quote: { bid: Decimal; ask: Decimal },
): void {
  if (body.quantity === undefined) {
    return; // a notional is a cash amount of at least one minor unit (checkOrderShape)
  }
  // A buy's limit caps its price; a sell's limit is a floor, so a sell prices at the bid when higher.
  const price =
    body.side === 'buy'
      ? (body.limit_price ?? body.stop_price ?? quote.ask.toFixed())
      : body.limit_price !== undefined
        ? Decimal.max(body.limit_price, quote.bid).toFixed()
        : (body.stop_price ?? quote.bid.toFixed());
  const value = valueOf(asset.class, body.quantity, new Money(price));
  if (value.toDecimalPlaces(minorUnits(asset.currency), Decimal.ROUND_HALF_UP).lte(0)) {
    throw invalid(
      'quantity',
      `${body.quantity} ${asset.symbol} at ${price} is worth less than ${minorUnitText(asset.currency)}: send a larger quantity.`,
    );
  }
}
