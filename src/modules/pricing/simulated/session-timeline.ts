import {
  formatCalendarDate,
  fromDayNumber,
  getMarket,
  isBusinessDay,
  MarketDefinition,
  MarketSession,
  parseCalendarDate,
  sessionInstants,
  toDayNumber,
  wallClock,
} from 'src/modules/markets/calendar';

const MINUTE = 60_000;
// Longest run of closed days on any calendar (Easter and a two-day Eid); the bound only stops a loop.
const MAX_CLOSED_RUN = 31;
const CACHE_LIMIT = 20_000;

/** One trading day's regular session as epoch milliseconds. */
export interface SessionWindow {
  date: string;
  dayNumber: number;
  open: number;
  close: number;
  preOpen: number | null;
  postClose: number | null;
  /** Whole minutes from open to close. */
  minutes: number;
}

export interface SessionPosition {
  /** The latest session that opened at or before the instant. */
  current: SessionWindow;
  /** The session before it (its close is the previous close). */
  previous: SessionWindow;
  /** Phase of the market at the instant. */
  phase: MarketSession;
}

function bounded<K, V>(map: Map<K, V>, key: K, value: V): V {
  if (map.size >= CACHE_LIMIT) {
    map.clear();
  }
  map.set(key, value);
  return value;
}

export function dayNumberOf(isoDate: string): number {
  return toDayNumber(parseCalendarDate(isoDate, 'date'));
}

export function isoDateOf(dayNumber: number): string {
  return formatCalendarDate(fromDayNumber(dayNumber));
}

/**
 * Session windows of a market read from the trading calendar, cached: the price engine asks the same
 * questions (is this day open, which session is current) for every asset of a market.
 */
export class SessionTimeline {
  private readonly windows = new Map<string, Map<number, SessionWindow | null>>();
  private readonly positions = new Map<string, SessionPosition>();
  private readonly tradingDays = new Map<string, Map<number, boolean>>();

  market(code: string): MarketDefinition {
    const market = getMarket(code);
    if (!market) {
      throw new Error(`Unknown market ${code}.`);
    }
    return market;
  }

  window(code: string, dayNumber: number): SessionWindow | null {
    let byDay = this.windows.get(code);
    if (!byDay) {
      byDay = new Map();
      this.windows.set(code, byDay);
    }
    const known = byDay.get(dayNumber);
    if (known !== undefined) {
      return known;
    }
    const date = isoDateOf(dayNumber);
    const times = sessionInstants(this.market(code), date);
    const window = times
      ? {
          date,
          dayNumber,
          open: times.open,
          close: times.close,
          preOpen: times.preOpen,
          postClose: times.postClose,
          minutes: Math.round((times.close - times.open) / MINUTE),
        }
      : null;
    return bounded(byDay, dayNumber, window);
  }

  /**
   * Whether the market trades that day: its weekday and holiday calendar only (a day has a session
   * exactly when it is a business day), without the session's instants, which cost time-zone work.
   * The seeded walk asks this for the 400 days before a close, the first time for each market.
   */
  isTradingDay(code: string, dayNumber: number): boolean {
    let byDay = this.tradingDays.get(code);
    if (!byDay) {
      byDay = new Map();
      this.tradingDays.set(code, byDay);
    }
    const known = byDay.get(dayNumber);
    if (known !== undefined) {
      return known;
    }
    const window = this.windows.get(code)?.get(dayNumber);
    if (window !== undefined) {
      return window !== null;
    }
    this.market(code); // an unknown market throws, as window() does
    return bounded(byDay, dayNumber, isBusinessDay(code, isoDateOf(dayNumber)));
  }

  /** Market-local calendar day number of an instant. */
  localDay(code: string, at: number): number {
    return dayNumberOf(wallClock(at, this.market(code).timezone).date);
  }

  /** The trading session before `dayNumber` (exclusive). */
  previousWindow(code: string, dayNumber: number): SessionWindow {
    for (let day = dayNumber - 1; day >= dayNumber - MAX_CLOSED_RUN; day--) {
      const window = this.window(code, day);
      if (window) {
        return window;
      }
    }
    throw new Error(`No ${code} session within ${MAX_CLOSED_RUN} days before ${isoDateOf(dayNumber)}.`);
  }

  /** The trading session after `dayNumber` (exclusive), or null if none within a month. */
  nextWindow(code: string, dayNumber: number): SessionWindow | null {
    for (let day = dayNumber + 1; day <= dayNumber + MAX_CLOSED_RUN; day++) {
      const window = this.window(code, day);
      if (window) {
        return window;
      }
    }
    return null;
  }

  /** Where an instant falls: current and previous sessions and the market phase (cached per minute). */
  position(code: string, at: number): SessionPosition {
    const minute = Math.floor(at / MINUTE);
    const key = `${code}|${minute}`;
    const known = this.positions.get(key);
    if (known) {
      return known;
    }
    const instant = minute * MINUTE;
    const today = this.localDay(code, instant);
    const todays = this.window(code, today);
    const current = todays && instant >= todays.open ? todays : this.previousWindow(code, today);
    const position = {
      current,
      previous: this.previousWindow(code, current.dayNumber),
      phase: phaseAt(todays, instant),
    };
    return bounded(this.positions, key, position);
  }
}

function phaseAt(window: SessionWindow | null, at: number): MarketSession {
  if (!window) {
    return 'closed';
  }
  if (at >= window.open && at < window.close) {
    return 'regular';
  }
  if (window.preOpen !== null && at >= window.preOpen && at < window.open) {
    return 'pre';
  }
  if (window.postClose !== null && at >= window.close && at < window.postClose) {
    return 'post';
  }
  return 'closed';
}
