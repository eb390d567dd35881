import Decimal from 'decimal.js';
import { Money } from 'src/core/money/money';
import { BondValuation } from 'src/modules/pricing/bond-valuation';
import { roundPrice, spreadAround } from 'src/modules/pricing/price-precision';
import type {
  BarPage,
  BarQuery,
  MarketQuote,
  PricedAsset,
  PriceSource,
} from 'src/modules/pricing/price-source';
import { buildBars } from 'src/modules/pricing/simulated/bar-builder';
import { STREAM, uniform } from 'src/modules/pricing/simulated/deterministic-random';
import { SeededWalk } from 'src/modules/pricing/simulated/seeded-walk';
import { isoDateOf, SessionTimeline } from 'src/modules/pricing/simulated/session-timeline';

const MINUTE = 60_000;
const PAR = new Money(100);
const CACHE_LIMIT = 20_000;

export interface WalkPrice {
  price: Decimal;
  /** Bonds: the yield the price was computed from. */
  yield?: Decimal;
}

/**
 * The sandbox price source: a seeded random walk per asset (see SeededWalk), reproducible from
 * (PRICE_SEED, asset id, minute) in any process. Prices move only in the regular session of the
 * asset's market; outside it they hold the last close. Bid and ask straddle the last price by a
 * class-dependent spread. Bonds walk their yield around the yield of their reference price, and are
 * priced from it with the bond math, so they pull to par as they approach maturity.
 */
export class SimulatedPriceSource implements PriceSource {
  readonly name = 'simulated';
  readonly timeline = new SessionTimeline();
  private readonly walk: SeededWalk;
  private readonly referenceYields = new Map<string, Decimal | null>();

  constructor(
    seed: string,
    private readonly bonds: BondValuation,
  ) {
    this.walk = new SeededWalk(this.timeline, seed);
  }

  quote(asset: PricedAsset, at: Date): Promise<MarketQuote> {
    return Promise.resolve(this.quoteAt(asset, at));
  }

  bars(asset: PricedAsset, query: BarQuery): Promise<BarPage> {
    return Promise.resolve(this.barsFor(asset, query));
  }

  quoteAt(asset: PricedAsset, at: Date): MarketQuote {
    const instant = at.getTime();
    const { current, previous, phase } = this.timeline.position(asset.market, instant);
    const closed = instant >= current.close;
    const minute = closed ? current.minutes : Math.floor((instant - current.open) / MINUTE);
    const last = this.priceAt(asset, this.walk.at(asset, current, previous, minute), current.date);
    const previousClose = this.priceAt(asset, this.walk.close(asset, previous.dayNumber), previous.date);
    const { bid, ask } = spreadAround(asset, last.price);
    const key = this.walk.key(asset.id);
    const size = (draw: number) =>
      this.tradeSize(asset, uniform(key, STREAM.size, current.dayNumber, minute, draw));
    return {
      last: last.price,
      bid,
      ask,
      bidSize: size(0),
      askSize: size(1),
      lastSize: size(2),
      previousClose: previousClose.price,
      previousCloseDate: previous.date,
      sessionDate: current.date,
      timestamp: new Date(closed ? current.close : current.open + minute * MINUTE),
      session: phase,
      ...(last.yield ? { yield: last.yield } : {}),
    };
  }

  barsFor(asset: PricedAsset, query: BarQuery): BarPage {
    return buildBars(
      {
        asset,
        timeline: this.timeline,
        walk: this.walk,
        price: (state, dayNumber) => this.priceAt(asset, state, isoDateOf(dayNumber)).price,
        minuteVolume: (dayNumber, minute) => this.minuteVolume(asset, dayNumber, minute),
      },
      query,
    );
  }

  /** Price of a walk state on a trading date (bonds: clean price at that date's settlement). */
  priceAt(asset: PricedAsset, state: number, tradeDate: string): WalkPrice {
    const reference = new Money(asset.referencePrice);
    if (asset.bond) {
      const settlement = this.bonds.settlement(asset, tradeDate);
      if (this.bonds.isMatured(asset, settlement)) {
        return { price: PAR };
      }
      const referenceYield = this.referenceYield(asset);
      if (referenceYield) {
        const yieldRate = referenceYield.plus(state);
        const clean = this.bonds.cleanFromYield(asset, yieldRate, settlement);
        return { price: roundPrice(asset, clean), yield: yieldRate };
      }
    }
    // The walk is noise in floating point; the growth factor enters decimal arithmetic at 12 significant
    // digits, so the last bit of a platform's exp() can never change a price.
    const factor = new Money(Math.exp(state).toPrecision(12));
    return { price: roundPrice(asset, reference.times(factor)) };
  }

  /** Yield of the reference price at its own date: the centre of a bond's yield walk. */
  private referenceYield(asset: PricedAsset): Decimal | null {
    const terms = asset.bond;
    const key = `${asset.id}|${asset.referencePrice}|${terms?.referencePriceDate}`;
    if (this.referenceYields.has(key)) {
      return this.referenceYields.get(key) ?? null;
    }
    let result: Decimal | null = null;
    if (terms?.referencePriceDate && terms.maturityDate) {
      const settlement = this.bonds.settlement(asset, terms.referencePriceDate);
      result = this.bonds.yieldFromClean(asset, new Money(asset.referencePrice), settlement);
    }
    if (this.referenceYields.size >= CACHE_LIMIT) {
      this.referenceYields.clear();
    }
    this.referenceYields.set(key, result);
    return result;
  }

  /** Sizes: round lots for shares, face value for bonds, about $1,000-10,000 of a cryptocurrency. */
  private tradeSize(asset: PricedAsset, u: number): Decimal {
    if (asset.assetClass === 'cryptocurrency') {
      return new Money(1000 + 9000 * u).div(asset.referencePrice).toSignificantDigits(4);
    }
    if (asset.bond) {
      return new Money(10_000).times(1 + Math.floor(u * 100));
    }
    return new Money(100).times(1 + Math.floor(u * 9));
  }

  /** Volume traded in one session minute, from a dollar volume that scales with the price level. */
  private minuteVolume(
    asset: PricedAsset,
    dayNumber: number,
    minute: number,
  ): { volume: number; trades: number } {
    const key = this.walk.key(asset.id);
    const u = uniform(key, STREAM.volume, dayNumber, minute, 0);
    const trades = 1 + Math.floor(uniform(key, STREAM.volume, dayNumber, minute, 1) * 40);
    const reference = Number(asset.referencePrice);
    if (asset.bond) {
      return { volume: 50_000 * Math.round(1 + 9 * u), trades: Math.ceil(trades / 8) };
    }
    const notional = asset.assetClass === 'cryptocurrency' ? 2_000_000 : 400_000;
    const units = (notional * (0.5 + u)) / reference;
    return { volume: asset.assetClass === 'cryptocurrency' ? units : Math.max(1, Math.round(units)), trades };
  }
}
