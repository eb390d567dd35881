import type Decimal from 'decimal.js';
import { minorUnits } from 'src/core/money/currencies';
import { Money } from 'src/core/money/money';
import {
  addDays,
  dayOfWeek,
  isBusinessDay,
  parseCalendarDate,
  requireMarket,
  wallClock,
  zonedTimeToInstant,
} from 'src/modules/markets/calendar';

/** Whose calendar and time zone a currency's cash sweep follows (its home market). */
const CURRENCY_MARKETS: Readonly<Record<string, string>> = { USD: 'XNYS', NGN: 'XNSA', KES: 'XNAI' };

function timeZoneOf(currency: string): string {
  const code = CURRENCY_MARKETS[currency];
  return code ? requireMarket(code).timezone : 'UTC';
}

/** The calendar day (YYYY-MM-DD) an instant falls on in the currency's market time zone. */
export function marketDay(instant: Date, currency: string): string {
  return wallClock(instant.getTime(), timeZoneOf(currency)).date;
}

/** The first instant after `date` in the market's time zone: when the day has ended. */
export function endOfMarketDay(date: string, currency: string): Date {
  return new Date(zonedTimeToInstant(addDays(date, 1), 0, timeZoneOf(currency)));
}

/** Settled cash of a day is read at its last millisecond: entries at the next midnight count tomorrow. */
export function lastInstantOf(date: string, currency: string): Date {
  return new Date(endOfMarketDay(date, currency).getTime() - 1);
}

/** YYYY-MM of a date. */
export function monthOf(date: string): string {
  return date.slice(0, 7);
}

export function isLastDayOfMonth(date: string): boolean {
  return monthOf(addDays(date, 1)) !== monthOf(date);
}

/** First business day of the month after `month` (US calendar for USD; weekdays where no calendar). */
export function payoutDay(month: string, currency: string): string {
  const [year, mon] = month.split('-').map(Number);
  let day = mon === 12 ? `${year + 1}-01-01` : `${year}-${String(mon + 1).padStart(2, '0')}-01`;
  const code = CURRENCY_MARKETS[currency];
  const business = (d: string) =>
    code ? isBusinessDay(code, d) : ![0, 6].includes(dayOfWeek(parseCalendarDate(d, 'date')));
  while (!business(day)) {
    day = addDays(day, 1);
  }
  return day;
}

/** Payouts post at 09:00 in the market's time zone on the payout day. */
export function payoutInstant(month: string, currency: string): Date {
  return new Date(zonedTimeToInstant(payoutDay(month, currency), 9 * 60, timeZoneOf(currency)));
}

/** One day of interest: cash × bps / 10,000 / 365, rounded half-even to 8 decimals (docs/decisions.md, Cash sweep). */
export function dailyInterest(cash: Decimal.Value, bps: number): Decimal {
  return new Money(cash).times(bps).div(10_000).div(365).toDecimalPlaces(8, Money.ROUND_HALF_EVEN);
}

/** A month's accrual as paid: rounded half-even to the currency's minor units. */
export function payoutAmount(accrued: Decimal.Value, currency: string): Decimal {
  return new Money(accrued).toDecimalPlaces(minorUnits(currency), Money.ROUND_HALF_EVEN);
}
