/**
 * Month arithmetic on calendar dates (YYYY-MM-DD, UTC). Adding months keeps the day of the month,
 * clamped to the month's last day (31 January + 1 month is 28 or 29 February).
 */
export function addMonths(date: string, months: number): string {
  const [year, month, day] = date.split('-').map(Number);
  const index = year * 12 + (month - 1) + months;
  const y = Math.floor(index / 12);
  const m = index - y * 12;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return `${String(y).padStart(4, '0')}-${String(m + 1).padStart(2, '0')}-${String(Math.min(day, lastDay)).padStart(2, '0')}`;
}

/** Whole months from `from` until `to`: the largest n with addMonths(from, n) <= to (0 when to <= from). */
export function wholeMonthsBetween(from: string, to: string): number {
  if (to <= from) {
    return 0;
  }
  const [fy, fm] = from.split('-').map(Number);
  const [ty, tm] = to.split('-').map(Number);
  let n = (ty - fy) * 12 + (tm - fm);
  while (n > 0 && addMonths(from, n) > to) {
    n -= 1;
  }
  return n;
}

/** The calendar date (UTC) of an instant. */
export function utcDate(instant: Date): string {
  return instant.toISOString().slice(0, 10);
}

/** True for a real calendar date written YYYY-MM-DD (2026-02-30 is not one). */
export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    return false;
  }
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && utcDate(parsed) === value;
}
