import type { BondValue } from 'src/modules/pricing/bond-valuation';
import { priceNumber, roundChange } from 'src/modules/pricing/price-precision';
import type { Bar, PricedAsset } from 'src/modules/pricing/price-source';
import { changeFrom, PricedQuote } from 'src/modules/pricing/pricing.service';
import type {
  BarDto,
  BondQuoteDto,
  QuoteTickDto,
  TradeTickDto,
} from 'src/modules/market-data/dto/market-data.dto';

/** Price decimals become JSON numbers here, at the asset's quoting precision. */

export function barRecord(asset: PricedAsset, bar: Bar): BarDto {
  return {
    t: bar.t.toISOString(),
    o: priceNumber(asset, bar.o),
    h: priceNumber(asset, bar.h),
    l: priceNumber(asset, bar.l),
    c: priceNumber(asset, bar.c),
    v: bar.v.toNumber(),
    n: bar.n,
    vw: priceNumber(asset, bar.vw),
  };
}

export function quoteTick(asset: PricedAsset, quote: PricedQuote): QuoteTickDto {
  return {
    t: quote.timestamp.toISOString(),
    bp: priceNumber(asset, quote.bid),
    bs: quote.bidSize.toNumber(),
    ap: priceNumber(asset, quote.ask),
    as: quote.askSize.toNumber(),
  };
}

export function tradeTick(asset: PricedAsset, quote: PricedQuote): TradeTickDto {
  return {
    t: quote.timestamp.toISOString(),
    p: priceNumber(asset, quote.last),
    s: quote.lastSize.toNumber(),
  };
}

export function changeFields(asset: PricedAsset, quote: PricedQuote) {
  const { change, percent } = changeFrom(quote);
  return {
    previous_close: priceNumber(asset, quote.previousClose),
    change: roundChange(asset, change, quote.last).toNumber(),
    change_percent: percent.toDecimalPlaces(4).toNumber(),
  };
}

/**
 * Clean and accrued are rounded to six decimals first and dirty is their exact decimal sum, so
 * dirty_price = clean_price + accrued_interest holds in the response itself.
 */
export function bondBlock(value: BondValue): BondQuoteDto {
  const clean = value.cleanPrice.toDecimalPlaces(6);
  const accrued = value.accruedInterest.toDecimalPlaces(6);
  return {
    clean_price: clean.toNumber(),
    dirty_price: clean.plus(accrued).toNumber(),
    accrued_interest: accrued.toNumber(),
    ...(value.yieldToMaturity
      ? { yield_to_maturity: value.yieldToMaturity.times(100).toDecimalPlaces(4).toNumber() }
      : {}),
    settlement_date: value.settlementDate,
    next_coupon_date: value.nextCouponDate,
    previous_coupon_date: value.previousCouponDate,
    price_basis: 'percent_of_par',
  };
}
