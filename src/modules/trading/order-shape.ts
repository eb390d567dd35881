import Decimal from 'decimal.js';
import { ServiceError } from 'src/core/errors/service-error';
import { minorUnits } from 'src/core/money/currencies';
import { Money } from 'src/core/money/money';
import type { AssetQueryRow } from 'src/modules/assets/asset-queries';
import { getMarket } from 'src/modules/markets/calendar';
import type { PlaceOrderDto } from 'src/modules/trading/dto/place-order.dto';
import { isBondClass } from 'src/modules/trading/order-types';

const invalid = (param: string, message: string) => ServiceError.invalid(param, message);
const positive = (value: string | undefined, param: string) => {
  if (value !== undefined && new Money(value).lte(0)) {
    throw invalid(param, `${param} must be greater than zero.`);
  }
};

/**
 * Malformed orders and forbidden combinations: 400 naming the field, saying what to send instead
 * (Alpaca's order rules). Business refusals (422) come later, after entitlement (403). The checks
 * run in this order, so an order with several faults is told of the first.
 */
export function checkOrderShape(body: PlaceOrderDto, asset: AssetQueryRow): void {
  checkSize(body, asset);
  checkPrices(body);
  checkTrailing(body);
  checkNotionalAndExtendedHours(body);
  checkForAssetClass(body, asset);
}

/** Exactly one of quantity and notional, above zero; a notional in the currency's minor units. */
function checkSize(body: PlaceOrderDto, asset: AssetQueryRow): void {
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
}

/** Prices above zero; limit_price for (and only for) limit and stop_limit, stop_price for stop and stop_limit. */
function checkPrices(body: PlaceOrderDto): void {
  const { type } = body;
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
}

/** Trailing stops: exactly one of trail_percent (below 100) and trail_price, day or gtc; others neither. */
function checkTrailing(body: PlaceOrderDto): void {
  const tif = body.time_in_force;
  if (body.type === 'trailing_stop') {
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
}

/** notional only with market day orders; extended_hours only with limit day orders. */
function checkNotionalAndExtendedHours(body: PlaceOrderDto): void {
  const { type, time_in_force: tif } = body;
  if (body.notional !== undefined && (type !== 'market' || tif !== 'day')) {
    throw invalid(
      'notional',
      'notional is only for market orders with time_in_force day: send quantity instead.',
    );
  }
  if (body.extended_hours && (type !== 'limit' || tif !== 'day')) {
    throw invalid('extended_hours', 'extended_hours needs a limit order with time_in_force day.');
  }
}

/**
 * What the asset allows: crypto gtc or ioc; auctions only where the market has them; fractions only
 * of fractionable assets (in extended hours only where enabled); bonds market or limit, day, by
 * quantity, regular session; settlement_date only for bonds.
 */
function checkForAssetClass(body: PlaceOrderDto, asset: AssetQueryRow): void {
  const tif = body.time_in_force;
  const bond = isBondClass(asset.class);
  if (asset.class === 'cryptocurrency' && tif !== 'gtc' && tif !== 'ioc') {
    throw invalid('time_in_force', 'Crypto orders take time_in_force gtc or ioc.');
  }
  if (!bond && !getMarket(asset.market)?.holiday_calendar && (tif === 'opg' || tif === 'cls')) {
    throw invalid('time_in_force', `${asset.market} has no opening or closing auction: send gtc or ioc.`);
  }
  if (bond) {
    checkBondShape(body);
  } else {
    checkFractions(body, asset);
    if (body.settlement_date !== undefined) {
      throw invalid('settlement_date', 'settlement_date is only for bond orders: drop it.');
    }
  }
}

function checkFractions(body: PlaceOrderDto, asset: AssetQueryRow): void {
  const fractional = body.quantity !== undefined && !new Money(body.quantity).isInteger();
  if (!fractional && body.notional === undefined) {
    return;
  }
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

function checkBondShape(body: PlaceOrderDto): void {
  if (body.type !== 'market' && body.type !== 'limit') {
    throw invalid('type', 'Bond orders are market or limit (limit_price in percent of par).');
  }
  if (body.time_in_force !== 'day') {
    throw invalid('time_in_force', 'Bond orders take time_in_force day.');
  }
  if (body.notional !== undefined) {
    throw invalid('notional', 'Bond orders take quantity as face value: send quantity.');
  }
  if (body.extended_hours) {
    throw invalid('extended_hours', 'Bonds trade in the regular session only: drop extended_hours.');
  }
}
