import Decimal from 'decimal.js';
import type { AccrualBasis, CouponFrequency } from 'src/modules/fixed-income/bond-math';
import type { MarketSession } from 'src/modules/markets/calendar';

export const ASSET_CLASSES = [
  'equity',
  'etf',
  'bond',
  'bill',
  'note',
  'mutual_fund',
  'derivative',
  'cryptocurrency',
  'commodity',
  'real_estate',
  'cash',
] as const;
export type AssetClass = (typeof ASSET_CLASSES)[number];

/** Classes that carry bond attributes (spec, Asset: `bond` is present for these). */
export const BOND_CLASSES: readonly AssetClass[] = ['bond', 'bill', 'note'];

export const TIMEFRAMES = ['1Min', '5Min', '1Hour', '1Day'] as const;
export type Timeframe = (typeof TIMEFRAMES)[number];

/** Bond terms the price engine and the valuation need (dates 'YYYY-MM-DD', rates as fractions). */
export interface BondTerms {
  maturityDate: string | null;
  issueDate: string | null;
  datedDate: string | null;
  firstCouponDate: string | null;
  couponRate: string;
  couponFrequency: CouponFrequency;
  accrualBasis: AccrualBasis;
  settlementPeriod: number;
  /** Date the reference price was taken (the provider's close_price_date). */
  referencePriceDate: string | null;
  bondType: string;
  perpetual: boolean;
  nextCallDate: string | null;
  /** Call price per 100 face. */
  nextCallPrice: string | null;
}

/** What a price source needs to know about an asset. Bond prices are clean, in percent of par. */
/** From `from` on, prices are divided by `factor` (a split's new_rate / old_rate). */
export interface PriceAdjustment {
  factor: string;
  from: Date;
}

export interface PricedAsset {
  id: string;
  assetClass: AssetClass;
  market: string;
  referencePrice: string;
  bond: BondTerms | null;
  /** Splits of the asset the reader sees, oldest first (none when absent). */
  adjustments?: PriceAdjustment[];
}

export interface MarketQuote {
  last: Decimal;
  bid: Decimal;
  ask: Decimal;
  bidSize: Decimal;
  askSize: Decimal;
  lastSize: Decimal;
  /** Close of the session before the one `last` belongs to. */
  previousClose: Decimal;
  previousCloseDate: string;
  /** Trading date (market-local) of the session `last` belongs to. */
  sessionDate: string;
  /** When the price was recorded: the start of its one-minute bucket, or the session close. */
  timestamp: Date;
  /** Session of the asset's market at the time asked. */
  session: MarketSession;
  /** Bonds: the annual yield (fraction) `last` was priced from, when the source knows it. */
  yield?: Decimal;
}

export interface Bar {
  t: Date;
  o: Decimal;
  h: Decimal;
  l: Decimal;
  c: Decimal;
  v: Decimal;
  n: number;
  vw: Decimal;
}

export interface BarQuery {
  timeframe: Timeframe;
  start: Date;
  end: Date;
  limit: number;
  sort: 'asc' | 'desc';
  /** "Now" for the query: no bar starts after it, and a bar in progress stops at it. Defaults to now. */
  asOf?: Date;
}

export interface BarPage {
  bars: Bar[];
  /** Start time of the first bar after this page (in `sort` order), or null when none is left. */
  next: Date | null;
}

/**
 * Where prices come from. The sandbox uses the seeded SimulatedPriceSource; a vendor feed can take its
 * place by providing another implementation under the PRICE_SOURCE token.
 */
export interface PriceSource {
  readonly name: string;
  quote(asset: PricedAsset, at: Date): Promise<MarketQuote>;
  bars(asset: PricedAsset, query: BarQuery): Promise<BarPage>;
}

export const PRICE_SOURCE = Symbol('PRICE_SOURCE');
