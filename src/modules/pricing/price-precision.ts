import Decimal from 'decimal.js';
import { Money } from 'src/core/money/money';
import { BOND_CLASSES, PricedAsset } from 'src/modules/pricing/price-source';
import { assertUnreachable } from 'src/core/errors/assert-unreachable';

type Rounding = Decimal.Rounding;

/** Crypto prices keep 8 significant digits (a PEPE quote is 0.0000049812, a BTC quote 91842.501). */
const CRYPTO_SIGNIFICANT = 8;
/** Bond prices are percent of par; six decimals resolve a 1/256 tick within 4e-7. */
const BOND_DECIMALS = 6;

export function isBondClass(asset: Pick<PricedAsset, 'assetClass'>): boolean {
  return BOND_CLASSES.includes(asset.assetClass);
}

/** Decimal places of a price: equities tick at 0.01 from 1 up and 0.0001 below (SEC Rule 612). */
function decimalsFor(asset: Pick<PricedAsset, 'assetClass'>, value: Decimal): number {
  if (isBondClass(asset)) {
    return BOND_DECIMALS;
  }
  return value.abs().gte(1) ? 2 : 4;
}

/** Rounds a price to the asset's quoting precision. */
export function roundPrice(
  asset: Pick<PricedAsset, 'assetClass'>,
  value: Decimal,
  rounding: Rounding = Decimal.ROUND_HALF_EVEN,
): Decimal {
  if (asset.assetClass === 'cryptocurrency') {
    return value.toSignificantDigits(CRYPTO_SIGNIFICANT, rounding);
  }
  return value.toDecimalPlaces(decimalsFor(asset, value), rounding);
}

/** Rounds a price difference (change) to the precision of the price it belongs to. */
export function roundChange(
  asset: Pick<PricedAsset, 'assetClass'>,
  change: Decimal,
  price: Decimal,
): Decimal {
  if (asset.assetClass === 'cryptocurrency') {
    const digits = Math.max(0, CRYPTO_SIGNIFICANT - 1 - price.abs().e);
    return change.toDecimalPlaces(Math.min(digits, 18), Decimal.ROUND_HALF_EVEN);
  }
  return change.toDecimalPlaces(decimalsFor(asset, price), Decimal.ROUND_HALF_EVEN);
}

/** Half the quoted spread, in basis points of the price, by asset class and market liquidity. */
export function halfSpreadBps(asset: Pick<PricedAsset, 'assetClass' | 'market' | 'bond'>): number {
  switch (asset.assetClass) {
    case 'etf':
      return 1.5;
    case 'cryptocurrency':
      return 5;
    case 'bill':
      return 0.5;
    case 'note':
      return 1;
    case 'bond':
      return asset.bond?.bondType === 'treasury' ? 2 : 15;
    case 'equity':
    case 'mutual_fund':
    case 'derivative':
    case 'commodity':
    case 'real_estate':
    case 'cash':
      if (asset.market === 'XNSA' || asset.market === 'XNAI') {
        return 50;
      }
      return asset.market === 'OTC' ? 40 : 2.5;
    default:
      return assertUnreachable(asset.assetClass, 'asset class');
  }
}

/** Bid below and ask above `last` by the half spread, rounded outwards so bid < last < ask always. */
export function spreadAround(
  asset: Pick<PricedAsset, 'assetClass' | 'market' | 'bond'>,
  last: Decimal,
): { bid: Decimal; ask: Decimal } {
  const half = new Money(halfSpreadBps(asset)).div(10_000);
  const bid = roundPrice(asset, last.times(new Money(1).minus(half)), Decimal.ROUND_DOWN);
  const ask = roundPrice(asset, last.times(half.plus(1)), Decimal.ROUND_UP);
  return { bid: bid.lt(last) ? bid : last, ask: ask.gt(last) ? ask : last };
}

/** A decimal as a JSON number, at the asset's precision (the only place prices become floats). */
export function priceNumber(asset: Pick<PricedAsset, 'assetClass'>, value: Decimal): number {
  return roundPrice(asset, value).toNumber();
}
