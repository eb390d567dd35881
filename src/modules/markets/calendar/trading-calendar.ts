import { ServiceError } from 'src/core/errors/service-error';
import {
  addDays,
  dayOfWeek,
  daysBetween,
  parseCalendarDate,
} from 'src/modules/markets/calendar/calendar-date';
import { holidayName, nyseEarlyClose } from 'src/modules/markets/calendar/exchange-holidays';
import { MarketDefinition, getMarket } from 'src/modules/markets/calendar/market-definitions';
import {
  formatInstant,
  parseClockTime,
  wallClock,
  zonedTimeToInstant,
} from 'src/modules/markets/calendar/zoned-time';

/** A date as 'YYYY-MM-DD', or an instant read as the market's local date. */
export type DateInput = string | Date;

export interface TradingDay {
  date: string;
  is_trading_day: boolean;
  holiday_name: string | null;
  early_close: boolean;
  /** ISO 8601 instants with the market's UTC offset; null when the market is closed or has no such session. */
  pre_open: string | null;
  open: string | null;
  close: string | null;
  post_close: string | null;
}

/** Session boundaries of one trading day as epoch milliseconds (null: no such session). */
export interface SessionInstants {
  preOpen: number | null;
  open: number;
  close: number;
  postClose: number | null;
}

export const MAX_CALENDAR_DAYS = 366;
// A settlement offset beyond four years of business days is a mistake, not a request.
const MAX_BUSINESS_DAYS = 1000;

export function requireMarket(code: string): MarketDefinition {
  const market = getMarket(code);
  if (!market) {
    throw ServiceError.notFound('market', String(code));
  }
  return market;
}

export function resolveDate(market: MarketDefinition, value: DateInput, param: string): string {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) {
      throw ServiceError.invalid(param, `${param} is not a valid date.`);
    }
    return wallClock(value.getTime(), market.timezone).date;
  }
  parseCalendarDate(value, param);
  return value;
}

function isWeekday(isoDate: string): boolean {
  const day = dayOfWeek(parseCalendarDate(isoDate, 'date'));
  return day !== 0 && day !== 6;
}

interface DayStatus {
  tradingDay: boolean;
  holiday: string | null;
  earlyClose: boolean;
}

function dayStatus(market: MarketDefinition, isoDate: string): DayStatus {
  const calendar = market.holiday_calendar;
  if (!calendar) {
    return { tradingDay: true, holiday: null, earlyClose: false };
  }
  const holiday = holidayName(calendar, isoDate);
  const weekday = isWeekday(isoDate);
  const earlyClose =
    calendar === 'NYSE' && market.early_close_sessions !== null && nyseEarlyClose(isoDate, weekday);
  return { tradingDay: weekday && !holiday, holiday, earlyClose };
}

/** Session instants of `isoDate`, or null when the market does not trade that day. */
export function sessionInstants(market: MarketDefinition, isoDate: string): SessionInstants | null {
  const status = dayStatus(market, isoDate);
  if (!status.tradingDay) {
    return null;
  }
  const hours =
    status.earlyClose && market.early_close_sessions ? market.early_close_sessions : market.sessions;
  const at = (time: string) => zonedTimeToInstant(isoDate, parseClockTime(time), market.timezone);
  return {
    preOpen: market.sessions.pre ? at(market.sessions.pre.start) : null,
    open: at(hours.regular.start),
    close: at(hours.regular.end),
    postClose: hours.post ? at(hours.post.end) : null,
  };
}

function describeDay(market: MarketDefinition, isoDate: string): TradingDay {
  const status = dayStatus(market, isoDate);
  const times = sessionInstants(market, isoDate);
  const show = (instant: number | null | undefined) =>
    instant === null || instant === undefined ? null : formatInstant(instant, market.timezone);
  return {
    date: isoDate,
    is_trading_day: status.tradingDay,
    holiday_name: status.holiday,
    early_close: status.tradingDay && status.earlyClose,
    pre_open: show(times?.preOpen),
    open: show(times?.open),
    close: show(times?.close),
    post_close: show(times?.postClose),
  };
}

export function tradingDay(code: string, date: DateInput): TradingDay {
  const market = requireMarket(code);
  return describeDay(market, resolveDate(market, date, 'date'));
}

/** Trading days from `start` to `end`, both inclusive; at most 366 calendar days. */
export function calendar(code: string, start: DateInput, end: DateInput): TradingDay[] {
  const market = requireMarket(code);
  const first = resolveDate(market, start, 'start');
  const last = resolveDate(market, end, 'end');
  const span = daysBetween(parseCalendarDate(first, 'start'), parseCalendarDate(last, 'end')) + 1;
  if (span < 1) {
    throw ServiceError.invalid('start', 'start must be on or before end.');
  }
  if (span > MAX_CALENDAR_DAYS) {
    throw ServiceError.invalid(
      'end',
      `The range from start to end may cover at most ${MAX_CALENDAR_DAYS} days.`,
    );
  }
  const days: TradingDay[] = [];
  for (let i = 0; i < span; i++) {
    const day = describeDay(market, addDays(first, i));
    if (day.is_trading_day) {
      days.push(day);
    }
  }
  return days;
}

export function isBusinessDay(code: string, date: DateInput): boolean {
  const market = requireMarket(code);
  return dayStatus(market, resolveDate(market, date, 'date')).tradingDay;
}

/**
 * The date `days` business days after `date` (before it when negative), as used for T+N settlement.
 * A start on a non-business day counts from there: T+1 of a Saturday is the following Monday.
 */
export function addBusinessDays(code: string, date: DateInput, days: number): string {
  const market = requireMarket(code);
  let current = resolveDate(market, date, 'date');
  if (!Number.isInteger(days) || Math.abs(days) > MAX_BUSINESS_DAYS) {
    throw ServiceError.invalid(
      'days',
      `days must be a whole number between -${MAX_BUSINESS_DAYS} and ${MAX_BUSINESS_DAYS}.`,
    );
  }
  const step = days < 0 ? -1 : 1;
  for (let remaining = Math.abs(days); remaining > 0;) {
    current = addDays(current, step);
    if (dayStatus(market, current).tradingDay) {
      remaining--;
    }
  }
  return current;
}
