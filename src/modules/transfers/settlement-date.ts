import {
  addBusinessDays,
  addDays,
  dayOfWeek,
  parseCalendarDate,
  requireMarket,
  wallClock,
  zonedTimeToInstant,
} from 'src/modules/markets/calendar';

/** Whose business days a currency's transfers settle on (its home market's calendar). */
const CURRENCY_CALENDARS: Readonly<Record<string, string>> = { USD: 'XNYS', NGN: 'XNSA', KES: 'XNAI' };

/**
 * `days` business days after `from`, at the same local time: on the currency's home market
 * calendar (US holidays for USD, Nigerian for NGN, Kenyan for KES), weekdays in UTC for other
 * currencies. A start on a non-business day counts from there (Saturday + 1 = Monday).
 */
export function afterBusinessDays(from: Date, days: number, currency: string): Date {
  if (days === 0) {
    return new Date(from.getTime());
  }
  const code = CURRENCY_CALENDARS[currency];
  const timeZone = code ? requireMarket(code).timezone : 'UTC';
  const local = wallClock(from.getTime(), timeZone);
  const date = code ? addBusinessDays(code, local.date, days) : addWeekdays(local.date, days);
  const subMinuteMs = from.getTime() % 60_000;
  return new Date(zonedTimeToInstant(date, local.minuteOfDay, timeZone) + subMinuteMs);
}

function addWeekdays(isoDate: string, days: number): string {
  let current = isoDate;
  for (let remaining = days; remaining > 0;) {
    current = addDays(current, 1);
    const weekday = dayOfWeek(parseCalendarDate(current, 'date'));
    if (weekday !== 0 && weekday !== 6) {
      remaining--;
    }
  }
  return current;
}
