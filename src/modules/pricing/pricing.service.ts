import { Inject, Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { Money } from 'src/core/money/money';
import { getMarket, wallClock } from 'src/modules/markets/calendar';
import { BondValuation, BondValue } from 'src/modules/pricing/bond-valuation';
import { roundPrice, spreadAround } from 'src/modules/pricing/price-precision';
import {
  BarPage,
  BarQuery,
  MarketQuote,
  PRICE_SOURCE,
  PricedAsset,
  PriceSource,
} from 'src/modules/pricing/price-source';

/** A tester's fixed price for one asset (sandbox test helper), with when it was set. */
export interface PriceOverride {
  price: string;
  setAt: Date;
}

export interface PricedQuote extends MarketQuote {
  /** The price source's name ('simulated' in the sandbox), or 'override' for a tester's price. */
  source: string;
}

const MINUTE = 60_000;
const CACHE_LIMIT = 50_000;

/**
 * Quotes for assets: the configured price source (the seeded simulation in the sandbox), with a
 * tester's override taking the place of the last price when one is set. Quotes are cached per asset
 * and minute, the resolution at which prices move.
 */
@Injectable()
export class PricingService {
  private readonly quotes = new Map<string, MarketQuote>();

  constructor(
    @Inject(PRICE_SOURCE) private readonly source: PriceSource,
    private readonly bonds: BondValuation,
  ) {}

  async quote(
    asset: PricedAsset,
    override?: PriceOverride | null,
    at: Date = new Date(),
  ): Promise<PricedQuote> {
    const key = `${asset.id}|${asset.referencePrice}|${Math.floor(at.getTime() / MINUTE)}`;
    let quote = this.quotes.get(key);
    if (!quote) {
      quote = await this.source.quote(asset, at);
      if (this.quotes.size >= CACHE_LIMIT) {
        this.quotes.clear();
      }
      this.quotes.set(key, quote);
    }
    const factor = splitFactor(asset, at);
    const adjusted = factor.eq(1) ? quote : this.divided(asset, quote, factor);
    return override
      ? this.withOverride(asset, adjusted, this.adjustedOverride(asset, override, at))
      : { ...adjusted, source: this.source.name };
  }

  /** Bars of the source; from a split's instant on, their prices are divided by its ratio. */
  async bars(asset: PricedAsset, query: BarQuery): Promise<BarPage> {
    const page = await this.source.bars(asset, query);
    if (!asset.adjustments?.length) {
      return page;
    }
    const bars = page.bars.map((bar) => {
      const factor = splitFactor(asset, bar.t);
      if (factor.eq(1)) {
        return bar;
      }
      const div = (v: Decimal) => roundPrice(asset, v.div(factor));
      return { ...bar, o: div(bar.o), h: div(bar.h), l: div(bar.l), c: div(bar.c), vw: div(bar.vw) };
    });
    return { ...page, bars };
  }

  /**
   * Bond value of a quote's last price for a trade made at `at` (settling T+N business days on the
   * market's calendar): clean and dirty price, accrued interest, yield to maturity, coupon dates.
   */
  bondValue(asset: PricedAsset, quote: MarketQuote, at: Date = new Date()): BondValue | null {
    if (!asset.bond) {
      return null;
    }
    const tradeDate = this.tradeDate(asset, at);
    const sameSettlement =
      quote.yield !== undefined &&
      this.bonds.settlement(asset, tradeDate) === this.bonds.settlement(asset, quote.sessionDate);
    return this.bonds.value(asset, quote.last, tradeDate, sameSettlement ? quote.yield : undefined);
  }

  /** Accrued interest per 100 face at a settlement date. */
  bondAccrued(asset: PricedAsset, settlement: string): Decimal {
    return this.bonds.accrued(asset, settlement);
  }

  /** Yield to the next call of a callable bond at a quote's price, or null. */
  yieldToCall(asset: PricedAsset, quote: MarketQuote, at: Date = new Date()): Decimal | null {
    if (!asset.bond?.nextCallDate) {
      return null;
    }
    return this.bonds.yieldToCall(asset, quote.last, this.bonds.settlement(asset, this.tradeDate(asset, at)));
  }

  private tradeDate(asset: PricedAsset, at: Date): string {
    const market = getMarket(asset.market);
    return market ? wallClock(at.getTime(), market.timezone).date : at.toISOString().slice(0, 10);
  }

  /** A quote from a split's instant on: prices divided by its ratio (sizes unchanged). */
  private divided(asset: PricedAsset, quote: MarketQuote, factor: Decimal): MarketQuote {
    const div = (v: Decimal) => roundPrice(asset, v.div(factor));
    return {
      ...quote,
      last: div(quote.last),
      bid: div(quote.bid),
      ask: div(quote.ask),
      previousClose: div(quote.previousClose),
    };
  }

  /** A tester's price set before a split is divided by the splits that came after it. */
  private adjustedOverride(asset: PricedAsset, override: PriceOverride, at: Date): PriceOverride {
    const factor = (asset.adjustments ?? [])
      .filter((a) => a.from > override.setAt && a.from <= at)
      .reduce((f, a) => f.times(a.factor), new Money(1));
    return factor.eq(1) ? override : { ...override, price: new Money(override.price).div(factor).toFixed() };
  }

  private withOverride(asset: PricedAsset, quote: MarketQuote, override: PriceOverride): PricedQuote {
    const last = roundPrice(asset, new Money(override.price));
    const { bid, ask } = spreadAround(asset, last);
    const { yield: _simulatedYield, ...rest } = quote;
    return { ...rest, last, bid, ask, timestamp: override.setAt, source: 'override' };
  }
}

/** The product of the asset's split ratios in effect at `at` (1 without any). */
export function splitFactor(asset: PricedAsset, at: Date): Decimal {
  return (asset.adjustments ?? [])
    .filter((a) => a.from <= at)
    .reduce((f, a) => f.times(a.factor), new Money(1));
}

/** Change and percent change from the previous close, as decimals. */
export function changeFrom(quote: Pick<MarketQuote, 'last' | 'previousClose'>): {
  change: Decimal;
  percent: Decimal;
} {
  const change = quote.last.minus(quote.previousClose);
  const percent = quote.previousClose.isZero() ? new Money(0) : change.div(quote.previousClose).times(100);
  return { change, percent };
}
