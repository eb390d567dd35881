import { addDays, isBusinessDay, zonedTimeToInstant } from 'src/modules/markets/calendar';

/** Documents follow New York time and the US calendar (docs/decisions.md, Trade confirmations and monthly statements). */
export const NEW_YORK = 'America/New_York';

export function startOfDay(date: string): Date {
  return new Date(zonedTimeToInstant(date, 0, NEW_YORK));
}

/** The last millisecond of a New York day (what cashAt reads as the day's end). */
export function endOfDay(date: string): Date {
  return new Date(startOfDay(addDays(date, 1)).getTime() - 1);
}

export function nextBusinessDay(date: string): string {
  let day = addDays(date, 1);
  while (!isBusinessDay('XNYS', day)) {
    day = addDays(day, 1);
  }
  return day;
}

/** 07:00 New York of the business day after the trade date: when its confirmation is due. */
export function confirmationDue(tradeDate: string): Date {
  return new Date(zonedTimeToInstant(nextBusinessDay(tradeDate), 7 * 60, NEW_YORK));
}

export function monthBounds(month: string): { first: string; last: string } {
  const first = `${month}-01`;
  const [year, mon] = month.split('-').map(Number);
  const next = mon === 12 ? `${year + 1}-01-01` : `${year}-${String(mon + 1).padStart(2, '0')}-01`;
  return { first, last: addDays(next, -1) };
}

export function nextMonth(month: string): string {
  return addDays(monthBounds(month).last, 1).slice(0, 7);
}

/** 09:00 New York of the first business day of the next month (after the interest payout). */
export function statementDue(month: string): Date {
  const firstNext = addDays(monthBounds(month).last, 1);
  const day = isBusinessDay('XNYS', firstNext) ? firstNext : nextBusinessDay(firstNext);
  return new Date(zonedTimeToInstant(day, 9 * 60, NEW_YORK));
}
