import { ServiceError } from 'src/core/errors/service-error';

/**
 * Calendar dates ('YYYY-MM-DD') with no time of day and no zone. Arithmetic goes through a day number
 * counted in UTC, so daylight-saving changes can never move a date by one.
 */
export interface CalendarDate {
  year: number;
  /** 1-12 */
  month: number;
  day: number;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const MS_PER_DAY = 86_400_000;
// Holiday rules and day counts are only meaningful for modern dates; the bound also keeps loops short.
const MIN_YEAR = 1900;
const MAX_YEAR = 2199;

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export function isLastDayOfMonth(date: CalendarDate): boolean {
  return date.day === daysInMonth(date.year, date.month);
}

/** Parses 'YYYY-MM-DD', rejecting impossible dates such as 2025-02-30; errors name `param`. */
export function parseCalendarDate(value: unknown, param: string): CalendarDate {
  const match = typeof value === 'string' ? ISO_DATE.exec(value) : null;
  if (!match) {
    throw ServiceError.invalid(param, `${param} must be a date formatted YYYY-MM-DD.`);
  }
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    throw ServiceError.invalid(param, `${param} is not a valid calendar date: '${String(value)}'.`);
  }
  if (year < MIN_YEAR || year > MAX_YEAR) {
    throw ServiceError.invalid(param, `${param} must be between ${MIN_YEAR} and ${MAX_YEAR}.`);
  }
  return { year, month, day };
}

export function toDayNumber(date: CalendarDate): number {
  return Date.UTC(date.year, date.month - 1, date.day) / MS_PER_DAY;
}

export function fromDayNumber(dayNumber: number): CalendarDate {
  const utc = new Date(dayNumber * MS_PER_DAY);
  return { year: utc.getUTCFullYear(), month: utc.getUTCMonth() + 1, day: utc.getUTCDate() };
}

export function formatCalendarDate(date: CalendarDate): string {
  const pad = (n: number, width: number) => String(n).padStart(width, '0');
  return `${pad(date.year, 4)}-${pad(date.month, 2)}-${pad(date.day, 2)}`;
}

/**
 * `isoDate` moved by `days` calendar days. Formatted dates also order correctly as plain strings,
 * which the calendar relies on for range checks.
 */
export function addDays(isoDate: string, days: number): string {
  return formatCalendarDate(fromDayNumber(toDayNumber(parseCalendarDate(isoDate, 'date')) + days));
}

/** Whole days from `start` to `end` (negative when end is earlier). */
export function daysBetween(start: CalendarDate, end: CalendarDate): number {
  return toDayNumber(end) - toDayNumber(start);
}

/** 0 = Sunday ... 6 = Saturday. */
export function dayOfWeek(date: CalendarDate): number {
  return new Date(toDayNumber(date) * MS_PER_DAY).getUTCDay();
}
