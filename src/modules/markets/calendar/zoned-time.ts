import { addDays, formatCalendarDate, parseCalendarDate } from 'src/modules/markets/calendar/calendar-date';

/**
 * Wall-clock conversions for an IANA time zone using the runtime's Intl data (full ICU ships with Node),
 * so daylight-saving rules stay current without another dependency.
 */

const MS_PER_MINUTE = 60_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let fmt = formatters.get(timeZone);
  if (!fmt) {
    // h23 keeps midnight as 00 (some ICU builds print 24 with hour12: false).
    fmt = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, fmt);
  }
  return fmt;
}

export interface WallClock {
  /** Local calendar date, YYYY-MM-DD. */
  date: string;
  /** Minutes since local midnight, seconds truncated. */
  minuteOfDay: number;
  /** Local time minus UTC, in minutes (New York in summer: -240). */
  offsetMinutes: number;
}

export function wallClock(instantMs: number, timeZone: string): WallClock {
  const parts: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(new Date(instantMs))) {
    if (part.type !== 'literal') {
      parts[part.type] = Number(part.value);
    }
  }
  const localAsUtc = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
  const wholeSecond = Math.floor(instantMs / 1000) * 1000;
  return {
    date: formatCalendarDate({ year: parts.year, month: parts.month, day: parts.day }),
    minuteOfDay: parts.hour * 60 + parts.minute,
    offsetMinutes: Math.round((localAsUtc - wholeSecond) / MS_PER_MINUTE),
  };
}

/**
 * The instant at which the clock in `timeZone` reads `minuteOfDay` on `isoDate` (1440 = next midnight).
 * Sessions never start inside a DST gap (transitions happen at 02:00), so the two-pass offset lookup is exact.
 */
export function zonedTimeToInstant(isoDate: string, minuteOfDay: number, timeZone: string): number {
  const dayShift = Math.floor(minuteOfDay / 1440);
  const date = parseCalendarDate(dayShift ? addDays(isoDate, dayShift) : isoDate, 'date');
  const minute = minuteOfDay - dayShift * 1440;
  const localAsUtc = Date.UTC(date.year, date.month - 1, date.day, 0, minute);
  const firstGuess = localAsUtc - wallClock(localAsUtc, timeZone).offsetMinutes * MS_PER_MINUTE;
  return localAsUtc - wallClock(firstGuess, timeZone).offsetMinutes * MS_PER_MINUTE;
}

/** ISO 8601 with the zone's offset ('2025-07-03T13:00:00-04:00'), or a 'Z' suffix for UTC. */
export function formatInstant(instantMs: number, timeZone: string): string {
  if (timeZone === 'UTC') {
    return new Date(Math.floor(instantMs / 1000) * 1000).toISOString().replace('.000Z', 'Z');
  }
  const clock = wallClock(instantMs, timeZone);
  const seconds = Math.floor(instantMs / 1000) - Math.floor(instantMs / MS_PER_MINUTE) * 60;
  const offset = Math.abs(clock.offsetMinutes);
  const sign = clock.offsetMinutes < 0 ? '-' : '+';
  const two = (n: number) => String(n).padStart(2, '0');
  return (
    `${clock.date}T${two(Math.floor(clock.minuteOfDay / 60))}:${two(clock.minuteOfDay % 60)}:${two(seconds)}` +
    `${sign}${two(Math.floor(offset / 60))}:${two(offset % 60)}`
  );
}

/** 'HH:MM' to minutes since midnight ('24:00' = 1440). */
export function parseClockTime(value: string): number {
  const [hours, minutes] = value.split(':').map(Number);
  return hours * 60 + minutes;
}
