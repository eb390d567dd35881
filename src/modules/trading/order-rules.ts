import Decimal from 'decimal.js';
import { ServiceError } from 'src/core/errors/service-error';
import { minorUnits } from 'src/core/money/currencies';
import { Money } from 'src/core/money/money';
import type { AssetQueryRow } from 'src/modules/assets/asset-queries';
import { clock, getMarket } from 'src/modules/markets/calendar';
import type { PlaceOrderDto } from 'src/modules/trading/dto/place-order.dto';
import { isBondClass } from 'src/modules/trading/order-types';
import { valueOf } from 'src/modules/trading/order-views';

const invalid = (param: string, message: string) => ServiceError.invalid(param, message);
const positive = (value: string | undefined, param: string) => {
  if (value !== undefined && new Money(value).lte(0)) {
    throw invalid(param, `${param} must be greater than zero.`);
  }
};

/** Which enabled_assets entry an asset class needs (DECISIONS, Trading); null: not tradable here. */
export function enabledAssetOf(assetClass: string): string | null {
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
    default:
      return null;
  }
}

/**
 * Malformed orders and forbidden combinations: 400 naming the field, saying what to send instead
 * (Alpaca's order rules, ANCHORS.md). Business refusals (422) come later, after entitlement (403).
 */
export function checkOrderShape(body: PlaceOrderDto, asset: AssetQueryRow): void {
  const { type, time_in_force: tif } = body;
  if (body.quantity !== undefined && body.notional !== undefined) {
    throw invalid('notional', 'Send quantity or notional, not both.');
  }
  if (body.quantity === undefined && body.notional === undefined) {
    throw ServiceError.missing('quantity', 'Send quantity (units) or notional (a cash amount).');
  }
  positive(body.quantity, 'quantity');
  positive(body.notional, 'notional');
  if (body.notional !== undefined && new Money(body.notional).decimalPlaces() > minorUnits(asset.currency)) {
    throw invalid(
      'notional',
      `notional is a cash amount in ${asset.currency}: at most ${minorUnits(asset.currency)} decimals, e.g. ${new Money(body.notional).toFixed(minorUnits(asset.currency), Decimal.ROUND_DOWN)}.`,
    );
  }
  for (const param of ['limit_price', 'stop_price', 'trail_percent', 'trail_price'] as const) {
    positive(body[param], param);
  }
  const needsLimit = type === 'limit' || type === 'stop_limit';
  const needsStop = type === 'stop' || type === 'stop_limit';
  if (needsLimit && body.limit_price === undefined) {
    throw ServiceError.missing('limit_price', `A ${type} order needs limit_price.`);
  }
  if (!needsLimit && body.limit_price !== undefined) {
    throw invalid(
      'limit_price',
      `limit_price is only for limit and stop_limit orders: drop it or send type limit.`,
    );
  }
  if (needsStop && body.stop_price === undefined) {
    throw ServiceError.missing('stop_price', `A ${type} order needs stop_price.`);
  }
  if (!needsStop && body.stop_price !== undefined) {
    throw invalid(
      'stop_price',
      `stop_price is only for stop and stop_limit orders: drop it or send type stop.`,
    );
  }
  if (type === 'trailing_stop') {
    if ((body.trail_percent === undefined) === (body.trail_price === undefined)) {
      throw invalid(
        'trail_percent',
        'A trailing_stop order needs exactly one of trail_percent and trail_price.',
      );
    }
    if (body.trail_percent !== undefined && new Money(body.trail_percent).gte(100)) {
      throw invalid('trail_percent', 'trail_percent must be below 100.');
    }
    if (tif !== 'day' && tif !== 'gtc') {
      throw invalid('time_in_force', 'Trailing stops take time_in_force day or gtc.');
    }
  } else if (body.trail_percent !== undefined || body.trail_price !== undefined) {
    const param = body.trail_percent !== undefined ? 'trail_percent' : 'trail_price';
    throw invalid(param, `${param} is only for trailing_stop orders: drop it or send type trailing_stop.`);
  }
  if (body.notional !== undefined && (type !== 'market' || tif !== 'day')) {
    throw invalid(
      'notional',
      'notional is only for market orders with time_in_force day: send quantity instead.',
    );
  }
  if (body.extended_hours && (type !== 'limit' || tif !== 'day')) {
    throw invalid('extended_hours', 'extended_hours needs a limit order with time_in_force day.');
  }
  const bond = isBondClass(asset.class);
  if (asset.class === 'cryptocurrency' && tif !== 'gtc' && tif !== 'ioc') {
    throw invalid('time_in_force', 'Crypto orders take time_in_force gtc or ioc.');
  }
  if (!bond && !getMarket(asset.market)?.holiday_calendar && (tif === 'opg' || tif === 'cls')) {
    throw invalid('time_in_force', `${asset.market} has no opening or closing auction: send gtc or ioc.`);
  }
  const fractional = body.quantity !== undefined && !new Money(body.quantity).isInteger();
  if (!bond && (fractional || body.notional !== undefined)) {
    const param = fractional ? 'quantity' : 'notional';
    if (!asset.fractionable) {
      throw invalid(param, `${asset.symbol} is not fractionable: send a whole-number quantity.`);
    }
    if (body.extended_hours && !asset.fractional_eh_enabled) {
      throw invalid(
        param,
        `${asset.symbol} trades fractions in the regular session only: send a whole-number quantity.`,
      );
    }
  }
  if (bond) {
    if (type !== 'market' && type !== 'limit') {
      throw invalid('type', 'Bond orders are market or limit (limit_price in percent of par).');
    }
    if (tif !== 'day') {
      throw invalid('time_in_force', 'Bond orders take time_in_force day.');
    }
    if (body.notional !== undefined) {
      throw invalid('notional', 'Bond orders take quantity as face value: send quantity.');
    }
    if (body.extended_hours) {
      throw invalid('extended_hours', 'Bonds trade in the regular session only: drop extended_hours.');
    }
  } else if (body.settlement_date !== undefined) {
    throw invalid('settlement_date', 'settlement_date is only for bond orders: drop it.');
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
  const closed = (message: string) => new ServiceError('SVC-422-004', message, 'time_in_force');
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
    throw new ServiceError(
      'SVC-422-005',
      `quantity is face value and must be a multiple of ${step.toFixed()} (min_increment), e.g. ${step.times(Decimal.max(1, new Money(quantity).div(step).floor())).toFixed()}.`,
      'quantity',
    );
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
