import Decimal from 'decimal.js';
import { assertUnreachable } from 'src/core/errors/assert-unreachable';
import { ServiceError } from 'src/core/errors/service-error';
import { Money } from 'src/core/money/money';
import { parseBasis, parseDate } from 'src/modules/fixed-income/bond-math/bond-input';
import { AccrualBasis, CouponScheduleInput, DateInput } from 'src/modules/fixed-income/bond-math/bond-types';
import { quasiPeriodsBetween, resolveSchedule } from 'src/modules/fixed-income/bond-math/coupon-schedule';
import { CalendarDate, daysBetween, isLastDayOfMonth } from 'src/modules/markets/calendar/calendar-date';

function isLastDayOfFebruary(date: CalendarDate): boolean {
  return date.month === 2 && isLastDayOfMonth(date);
}

/**
 * 30/360 US (NASD / SIA bond basis, spreadsheet basis 0):
 * 1. start and end both the last day of February: end becomes 30;
 * 2. start the last day of February: start becomes 30;
 * 3. end 31 and start 30 or 31: end becomes 30;
 * 4. start 31: start becomes 30.
 */
export function days30360(start: CalendarDate, end: CalendarDate): number {
  let d1 = start.day;
  let d2 = end.day;
  if (isLastDayOfFebruary(start) && isLastDayOfFebruary(end)) {
    d2 = 30;
  }
  if (isLastDayOfFebruary(start)) {
    d1 = 30;
  }
  if (d2 === 31 && d1 >= 30) {
    d2 = 30;
  }
  if (d1 === 31) {
    d1 = 30;
  }
  return 360 * (end.year - start.year) + 30 * (end.month - start.month) + (d2 - d1);
}

/** Accrual days between two dates under `basis` (30/360 counting for 30/360, actual days otherwise). */
export function accrualDays(basis: AccrualBasis, start: CalendarDate, end: CalendarDate): number {
  switch (basis) {
    case '30/360':
      return days30360(start, end);
    case 'ACT/ACT':
    case 'ACT/360':
    case 'ACT/365':
      return daysBetween(start, end);
    default:
      return assertUnreachable(basis, 'accrual basis');
  }
}

/** Days in the coupon period [start, end) that accrual fractions divide by. */
export function periodLength(
  basis: AccrualBasis,
  start: CalendarDate,
  end: CalendarDate,
  frequency: number,
): Decimal {
  switch (basis) {
    case 'ACT/ACT':
      return new Money(daysBetween(start, end));
    case 'ACT/365':
      return new Money(365).div(frequency);
    case 'ACT/360':
    case '30/360':
      return new Money(360).div(frequency);
    default:
      return assertUnreachable(basis, 'accrual basis');
  }
}

/** Day count between two dates under `basis` (the numerator of an accrual fraction). */
export function dayCount(basis: AccrualBasis, start: DateInput, end: DateInput): number {
  return accrualDays(parseBasis(basis), parseDate(start, 'start'), parseDate(end, 'end'));
}

/**
 * Year fraction from `start` to `end`. ACT/ACT (ICMA) depends on the coupon periods, so it needs the
 * bond's schedule as `reference`: each quasi-coupon period contributes days / (frequency x period days).
 */
export function yearFraction(
  basis: AccrualBasis,
  start: DateInput,
  end: DateInput,
  reference?: CouponScheduleInput,
): Decimal {
  const checkedBasis = parseBasis(basis);
  const from = parseDate(start, 'start');
  const to = parseDate(end, 'end');
  if (daysBetween(from, to) < 0) {
    throw ServiceError.invalid('end', 'end must not be before start.');
  }
  if (checkedBasis !== 'ACT/ACT') {
    const yearDays = checkedBasis === 'ACT/365' ? 365 : 360;
    return new Money(accrualDays(checkedBasis, from, to)).div(yearDays);
  }
  if (!reference) {
    throw ServiceError.invalid('reference', 'ACT/ACT needs the coupon schedule (maturity and frequency).');
  }
  const schedule = resolveSchedule(reference);
  let fraction = new Money(0);
  for (const period of quasiPeriodsBetween(schedule, from, to)) {
    const length = daysBetween(period.start, period.end);
    fraction = fraction.plus(
      new Money(daysBetween(period.from, period.to)).div(length * schedule.periodsPerYear),
    );
  }
  return fraction;
}
