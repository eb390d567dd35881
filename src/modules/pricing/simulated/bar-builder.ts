import Decimal from 'decimal.js';
import { Money } from 'src/core/money/money';
import { zonedTimeToInstant } from 'src/modules/markets/calendar';
import { roundPrice } from 'src/modules/pricing/price-precision';
import type { Bar, BarPage, BarQuery, PricedAsset, Timeframe } from 'src/modules/pricing/price-source';
import type { SeededWalk } from 'src/modules/pricing/simulated/seeded-walk';
import type { SessionTimeline, SessionWindow } from 'src/modules/pricing/simulated/session-timeline';

const MINUTE = 60_000;
const TIMEFRAME_MS: Record<Exclude<Timeframe, '1Day'>, number> = {
  '1Min': MINUTE,
  '5Min': 5 * MINUTE,
  '1Hour': 60 * MINUTE,
};
/** Daily bars sample the path every 5 minutes for high and low; intraday bars every minute. */
const DAILY_SAMPLE_STEP = 5;

export interface BarInputs {
  asset: PricedAsset;
  timeline: SessionTimeline;
  walk: SeededWalk;
  /** Price of a walk state on a trading day. */
  price(state: number, dayNumber: number): Decimal;
  minuteVolume(dayNumber: number, minute: number): { volume: number; trades: number };
}

interface Bucket {
  t: number;
  /** Session minutes covered, from `first` to `last` (inclusive end point). */
  first: number;
  last: number;
}

/** The buckets of one session, in time order: one per day, or every clock-aligned 1/5/60 minutes. */
function buckets(session: SessionWindow, timeframe: Timeframe, timezone: string): Bucket[] {
  if (timeframe === '1Day') {
    return [{ t: zonedTimeToInstant(session.date, 0, timezone), first: 0, last: session.minutes }];
  }
  const size = TIMEFRAME_MS[timeframe];
  const result: Bucket[] = [];
  for (let start = Math.floor(session.open / size) * size; start < session.close; start += size) {
    result.push({
      t: start,
      first: Math.max(0, Math.ceil((start - session.open) / MINUTE)),
      last: Math.min(session.minutes, Math.floor((start + size - session.open) / MINUTE)),
    });
  }
  return result;
}

/**
 * Prices of one session's path by minute, memoised: a bar opens where the previous one closed, and its
 * high or low is often one of its ends. This matters for bonds, each of whose prices is a valuation.
 */
function sessionPricer(
  inputs: BarInputs,
  session: SessionWindow,
  path: (m: number) => number,
): (minute: number) => Decimal {
  const prices = new Map<number, Decimal>();
  return (minute: number) => {
    let price = prices.get(minute);
    if (!price) {
      price = inputs.price(path(minute), session.dayNumber);
      prices.set(minute, price);
    }
    return price;
  };
}

function toBar(
  inputs: BarInputs,
  session: SessionWindow,
  path: (m: number) => number,
  priceAt: (minute: number) => Decimal,
  bucket: Bucket,
  last: number,
): Bar {
  const step = bucket.last - bucket.first > 60 ? DAILY_SAMPLE_STEP : 1;
  let high = { value: -Infinity, minute: bucket.first };
  let low = { value: Infinity, minute: bucket.first };
  for (let m = bucket.first; m <= last; m = m === last ? last + 1 : Math.min(m + step, last)) {
    const value = path(m);
    if (value > high.value) {
      high = { value, minute: m };
    }
    if (value < low.value) {
      low = { value, minute: m };
    }
  }
  let volume = 0;
  let trades = 0;
  for (let m = bucket.first; m < last; m++) {
    const minute = inputs.minuteVolume(session.dayNumber, m);
    volume += minute.volume;
    trades += minute.trades;
  }
  const o = priceAt(bucket.first);
  const c = priceAt(last);
  // Bonds walk their yield, so their highest price comes from the lowest state: order both ends.
  const ends = [priceAt(high.minute), priceAt(low.minute), o, c];
  const h = Decimal.max(...ends);
  const l = Decimal.min(...ends);
  const typical = h.plus(l).plus(c).div(3);
  return {
    t: new Date(bucket.t),
    o,
    h,
    l,
    c,
    v: new Money(volume).toSignificantDigits(12),
    n: trades,
    vw: roundPrice(inputs.asset, typical),
  };
}

/**
 * Bars of the seeded walk between query.start and query.end (bar start times, inclusive), in the
 * requested order, up to query.limit; `next` is the start of the following bar when more exist. Only
 * regular-session minutes make bars; a bar still in progress at `asOf` covers the minutes so far.
 */
export function buildBars(inputs: BarInputs, query: BarQuery): BarPage {
  const { asset, timeline } = inputs;
  const timezone = timeline.market(asset.market).timezone;
  const start = query.start.getTime();
  const end = query.end.getTime();
  const asOf = (query.asOf ?? new Date()).getTime();
  const firstDay = timeline.localDay(asset.market, start) - 1;
  const lastDay = timeline.localDay(asset.market, end);
  const ascending = query.sort === 'asc';
  const bars: Bar[] = [];
  let next: Date | null = null;

  for (let i = 0; i <= lastDay - firstDay && next === null; i++) {
    const day = ascending ? firstDay + i : lastDay - i;
    const session = timeline.window(asset.market, day);
    if (!session || session.open > asOf) {
      continue;
    }
    const previous = timeline.previousWindow(asset.market, day);
    const path = inputs.walk.path(asset, session, previous);
    const priceAt = sessionPricer(inputs, session, path);
    const dayBuckets = buckets(session, query.timeframe, timezone);
    const ordered = ascending ? dayBuckets : dayBuckets.reverse();
    for (const bucket of ordered) {
      const lastMinute = Math.min(bucket.last, Math.floor((asOf - session.open) / MINUTE));
      if (bucket.t < start || bucket.t > end || lastMinute <= bucket.first) {
        continue;
      }
      if (bars.length === query.limit) {
        next = new Date(bucket.t);
        break;
      }
      bars.push(toBar(inputs, session, path, priceAt, bucket, lastMinute));
    }
  }
  return { bars, next };
}
