import { addDays, clock, getMarket, sessionInstants, wallClock } from 'src/modules/markets/calendar';
import type { Phase } from 'src/modules/trading/engine/fill-rules';

// A market's session phase at an instant and its next sessions, as the engine decides and schedules by.

const MINUTE = 60_000;
const CACHE_LIMIT = 10_000;
// Session boundaries fall on whole minutes, so phases and next sessions are the same for every
// instant of a minute: both are kept per market and minute (the calendar work is the costly part).
const phases = new Map<string, Phase>();
const sessions = new Map<string, { open: Date; close: Date; closeOfCurrent: Date } | null>();

function remember<T>(cache: Map<string, T>, key: string, compute: () => T): T {
  if (cache.has(key)) {
    return cache.get(key) as T;
  }
  const value = compute();
  if (cache.size >= CACHE_LIMIT) {
    cache.clear();
  }
  cache.set(key, value);
  return value;
}

/** The phase of a market at an instant: regular, pre/post (extended) or closed. */
export function phaseAt(market: string, at: Date): Phase {
  return remember(phases, `${market}|${Math.floor(at.getTime() / MINUTE)}`, () => {
    if (!getMarket(market)) {
      return 'closed';
    }
    const session = clock(market, new Date(Math.floor(at.getTime() / MINUTE) * MINUTE)).session;
    return session === 'regular' ? 'regular' : session === 'closed' ? 'closed' : 'extended';
  });
}

/** The next regular open and close of a market after `at` (null for a market that never closes). */
export function nextSession(
  market: string,
  at: Date,
): { open: Date; close: Date; closeOfCurrent: Date } | null {
  const minute = Math.floor(at.getTime() / MINUTE) * MINUTE;
  return remember(sessions, `${market}|${minute}`, () => computeNextSession(market, minute));
}

function computeNextSession(
  market: string,
  now: number,
): { open: Date; close: Date; closeOfCurrent: Date } | null {
  const definition = getMarket(market);
  if (!definition?.holiday_calendar) {
    return null;
  }
  const today = wallClock(now, definition.timezone).date;
  let open: number | null = null;
  let closeOfCurrent: number | null = null;
  for (let ahead = 0; ahead <= 31 && (open === null || closeOfCurrent === null); ahead++) {
    const times = sessionInstants(definition, addDays(today, ahead));
    if (!times) {
      continue;
    }
    if (closeOfCurrent === null && times.close > now) {
      closeOfCurrent = times.close;
    }
    if (open === null && times.open > now) {
      open = times.open;
    }
  }
  if (open === null || closeOfCurrent === null) {
    return null;
  }
  const close = sessionInstants(definition, wallClock(open, definition.timezone).date)!.close;
  return { open: new Date(open), close: new Date(close), closeOfCurrent: new Date(closeOfCurrent) };
}
