import type { PricedAsset } from 'src/modules/pricing/price-source';
import {
  standardNormal,
  STREAM,
  StreamKey,
  streamKey,
} from 'src/modules/pricing/simulated/deterministic-random';
import type { SessionTimeline, SessionWindow } from 'src/modules/pricing/simulated/session-timeline';
import { assertUnreachable } from 'src/core/errors/assert-unreachable';

/**
 * The seeded walk behind every simulated price. Its state is one number per asset: the log of
 * price / reference price for most assets, and the yield change from the reference yield for bonds.
 *
 * Closes follow an AR(1) process with daily shocks, X(d) = phi * X(d-1) + sigma * e(d), written as
 * the sum of the last HORIZON shocks so the close of any day is computed directly (no replay from an
 * epoch, no stored state). phi just below 1 makes it a random walk that slowly returns to the
 * reference, so prices stay plausible for years. Days the market is closed get no shock, so prices move
 * only in session. Within a session, the path runs from the open (the previous close plus a small gap)
 * to the close along a Brownian bridge built by midpoint displacement over 2048 leaves: the value at
 * any minute costs 11 draws.
 */

const HORIZON = 400;
const LEAVES = 2048;
const GAP_SCALE = 0.3;
const CACHE_LIMIT = 200_000;
/** Market and day windows of trading lags kept (a few markets times the days asked about). */
const LAG_TABLES_KEPT = 5_000;

export interface WalkSpec {
  /** Daily standard deviation of the walk (log price, or yield as a fraction for bonds). */
  sigma: number;
  /** Day-to-day persistence: 1 is a pure random walk; less pulls back towards the reference. */
  phi: number;
}

/** Daily volatility by asset class; bonds walk their yield, everything else its log price. */
export function walkSpec(asset: PricedAsset): WalkSpec {
  const phi = 0.985;
  switch (asset.assetClass) {
    case 'cryptocurrency':
      return { sigma: 0.035, phi };
    case 'etf':
      return { sigma: 0.01, phi };
    case 'bill':
      return { sigma: 0.0002, phi };
    case 'note':
      return { sigma: 0.0005, phi };
    case 'bond':
      return { sigma: asset.bond ? 0.0006 : 0.004, phi };
    case 'equity':
    case 'mutual_fund':
    case 'derivative':
    case 'commodity':
    case 'real_estate':
    case 'cash':
      return { sigma: asset.market === 'OTC' ? 0.025 : 0.018, phi };
    default:
      return assertUnreachable(asset.assetClass, 'asset class');
  }
}

function powers(phi: number): Float64Array {
  const table = new Float64Array(HORIZON);
  let value = 1;
  for (let j = 0; j < HORIZON; j++) {
    table[j] = value;
    value *= phi;
  }
  return table;
}

export class SeededWalk {
  private readonly keys = new Map<string, StreamKey>();
  private readonly closes = new Map<string, number>();
  private readonly powerTables = new Map<number, Float64Array>();
  /** Weight of the shock j days before a close, phi^j * sigma, per walk spec. */
  private readonly weightTables = new Map<string, Float64Array>();
  /** Per market and close day: the lags j (ascending) whose day d - j the market traded. */
  private readonly tradingLags = new Map<string, Int32Array>();

  constructor(
    private readonly timeline: SessionTimeline,
    private readonly seed: string,
  ) {}

  key(assetId: string): StreamKey {
    let key = this.keys.get(assetId);
    if (!key) {
      if (this.keys.size >= CACHE_LIMIT) {
        this.keys.clear();
      }
      key = streamKey(`${this.seed}:${assetId}`);
      this.keys.set(assetId, key);
    }
    return key;
  }

  /**
   * Walk value at the close of a trading day: the sum over the HORIZON days before it, in order of
   * lag, of phi^j * sigma * shock. The trading days of the window and the weights are shared by every
   * asset of a market and spec, so a close costs one shock per trading day and the additions happen
   * in the same order on the same products as term by term: the value is the same double.
   */
  close(asset: PricedAsset, dayNumber: number): number {
    const cacheKey = `${asset.id}|${dayNumber}`;
    const known = this.closes.get(cacheKey);
    if (known !== undefined) {
      return known;
    }
    const weights = this.weights(walkSpec(asset));
    const lags = this.lags(asset.market, dayNumber);
    const key = this.key(asset.id);
    let value = 0;
    for (let i = 0; i < lags.length; i++) {
      const j = lags[i];
      value += weights[j] * standardNormal(key, STREAM.daily, dayNumber - j, 0);
    }
    if (this.closes.size >= CACHE_LIMIT) {
      this.closes.clear();
    }
    this.closes.set(cacheKey, value);
    return value;
  }

  private weights(spec: WalkSpec): Float64Array {
    const specKey = `${spec.phi}|${spec.sigma}`;
    let weights = this.weightTables.get(specKey);
    if (!weights) {
      let table = this.powerTables.get(spec.phi);
      if (!table) {
        table = powers(spec.phi);
        this.powerTables.set(spec.phi, table);
      }
      weights = table.map((power) => power * spec.sigma);
      this.weightTables.set(specKey, weights);
    }
    return weights;
  }

  private lags(market: string, dayNumber: number): Int32Array {
    const lagKey = `${market}|${dayNumber}`;
    let lags = this.tradingLags.get(lagKey);
    if (!lags) {
      const traded: number[] = [];
      for (let j = 0; j < HORIZON; j++) {
        if (this.timeline.isTradingDay(market, dayNumber - j)) {
          traded.push(j);
        }
      }
      lags = Int32Array.from(traded);
      if (this.tradingLags.size >= LAG_TABLES_KEPT) {
        this.tradingLags.clear();
      }
      this.tradingLags.set(lagKey, lags);
    }
    return lags;
  }

  /** Walk value at the open of `session`: the previous close plus a small overnight gap. */
  open(asset: PricedAsset, session: SessionWindow, previous: SessionWindow): number {
    const gap =
      GAP_SCALE *
      walkSpec(asset).sigma *
      standardNormal(this.key(asset.id), STREAM.gap, session.dayNumber, 0);
    return this.close(asset, previous.dayNumber) + gap;
  }

  /** Walk value `minute` whole minutes after the open of `session` (0 = open, session.minutes = close). */
  at(asset: PricedAsset, session: SessionWindow, previous: SessionWindow, minute: number): number {
    return this.path(asset, session, previous)(minute);
  }

  /** The session's path as a function of the minute, sharing the work common to every minute. */
  path(asset: PricedAsset, session: SessionWindow, previous: SessionWindow): (minute: number) => number {
    const open = this.open(asset, session, previous);
    const close = this.close(asset, session.dayNumber);
    const sigma = walkSpec(asset).sigma;
    const key = this.key(asset.id);
    const total = Math.max(1, session.minutes);
    return (minute: number) => {
      const m = Math.min(Math.max(minute, 0), total);
      const leaf = Math.floor((m * LEAVES) / total);
      return open + ((close - open) * m) / total + sigma * bridge(key, session.dayNumber, leaf);
    };
  }
}

/** Standard Brownian bridge (0 at both ends, variance u(1-u)) at leaf / LEAVES, by midpoint displacement. */
export function bridge(key: StreamKey, dayNumber: number, leaf: number): number {
  if (leaf <= 0 || leaf >= LEAVES) {
    return 0;
  }
  let lo = 0;
  let hi = LEAVES;
  let valueLo = 0;
  let valueHi = 0;
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    const spread = Math.sqrt((hi - lo) / LEAVES) / 2;
    const valueMid = (valueLo + valueHi) / 2 + spread * standardNormal(key, STREAM.bridge, dayNumber, mid);
    if (leaf < mid) {
      hi = mid;
      valueHi = valueMid;
    } else {
      lo = mid;
      valueLo = valueMid;
    }
  }
  return valueLo;
}
