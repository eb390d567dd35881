import { ServiceError } from 'src/core/errors/service-error';
import { addDays } from 'src/modules/markets/calendar/calendar-date';
import {
  SessionInstants,
  requireMarket,
  sessionInstants,
} from 'src/modules/markets/calendar/trading-calendar';
import { formatInstant, wallClock } from 'src/modules/markets/calendar/zoned-time';

export type MarketSession = 'pre' | 'regular' | 'post' | 'closed';

export interface MarketClock {
  market: string;
  /** `now` in the market's local time with its UTC offset. */
  timestamp: string;
  /** True only during the regular session. */
  is_open: boolean;
  session: MarketSession;
  /** Next regular-session open after now; null for a market that never closes. */
  next_open: string | null;
  /** Close of the current regular session if open, else of the next one; null for a market that never closes. */
  next_close: string | null;
}

// Longest run of closed days we expect (Easter plus a two-day Eid in Lagos); the bound only stops a loop.
const MAX_DAYS_AHEAD = 31;

function toInstant(now: Date | string): number {
  const instant = now instanceof Date ? now.getTime() : typeof now === 'string' ? Date.parse(now) : NaN;
  if (Number.isNaN(instant)) {
    throw ServiceError.invalid('now', 'now must be a valid ISO 8601 date-time.');
  }
  return instant;
}

function sessionAt(times: SessionInstants | null, now: number): MarketSession {
  if (!times) {
    return 'closed';
  }
  if (now >= times.open && now < times.close) {
    return 'regular';
  }
  if (times.preOpen !== null && now >= times.preOpen && now < times.open) {
    return 'pre';
  }
  if (times.postClose !== null && now >= times.close && now < times.postClose) {
    return 'post';
  }
  return 'closed';
}

export function clock(code: string, now: Date | string = new Date()): MarketClock {
  const market = requireMarket(code);
  const instant = toInstant(now);
  const timestamp = formatInstant(instant, market.timezone);
  if (!market.holiday_calendar) {
    return {
      market: market.code,
      timestamp,
      is_open: true,
      session: 'regular',
      next_open: null,
      next_close: null,
    };
  }

  const today = wallClock(instant, market.timezone).date;
  const todayTimes = sessionInstants(market, today);
  const session = sessionAt(todayTimes, instant);
  let next: SessionInstants | null = null;
  for (let ahead = 0; ahead <= MAX_DAYS_AHEAD && !next; ahead++) {
    const times = sessionInstants(market, addDays(today, ahead));
    next = times && times.open > instant ? times : null;
  }
  if (!next) {
    throw new Error(`No ${market.code} session within ${MAX_DAYS_AHEAD} days of ${timestamp}.`);
  }
  const closing = session === 'regular' && todayTimes ? todayTimes.close : next.close;
  return {
    market: market.code,
    timestamp,
    is_open: session === 'regular',
    session,
    next_open: formatInstant(next.open, market.timezone),
    next_close: formatInstant(closing, market.timezone),
  };
}
