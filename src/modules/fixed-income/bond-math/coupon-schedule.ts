import { ServiceError } from 'src/core/errors/service-error';
import {
  parseDate,
  parseFrequency,
  parseOptionalDate,
  requireBefore,
} from 'src/modules/fixed-income/bond-math/bond-input';
import {
  CouponFrequency,
  CouponScheduleInput,
  DateInput,
} from 'src/modules/fixed-income/bond-math/bond-types';
import {
  CalendarDate,
  daysBetween,
  daysInMonth,
  formatCalendarDate,
  isLastDayOfMonth,
} from 'src/modules/markets/calendar/calendar-date';

/**
 * Coupon dates are counted backwards from maturity in whole periods, each computed from maturity
 * directly (not by repeated stepping) so a 31st never drifts to the 30th. A maturity on the last day of
 * a month puts every coupon on a month end (end-of-month rule: 31 May / 30 November Treasuries).
 * Zero coupons get semiannual quasi-coupon dates, which the street yield convention discounts over.
 */
export interface ResolvedSchedule {
  maturity: CalendarDate;
  frequency: CouponFrequency;
  /** Compounding periods per year: the coupon frequency, or 2 for a zero coupon. */
  periodsPerYear: number;
  endOfMonth: boolean;
  issue?: CalendarDate;
  firstCoupon?: CalendarDate;
  /** Periods between firstCoupon and maturity. */
  firstCouponIndex?: number;
}

export interface QuasiPeriod {
  start: CalendarDate;
  end: CalendarDate;
  /** Periods from `end` to maturity (0 when `end` is the maturity date). */
  endIndex: number;
}

const key = formatCalendarDate;

/** The schedule date `periods` whole periods before maturity. */
export function scheduleDate(schedule: ResolvedSchedule, periods: number): CalendarDate {
  const monthIndex =
    schedule.maturity.year * 12 + (schedule.maturity.month - 1) - (periods * 12) / schedule.periodsPerYear;
  const year = Math.floor(monthIndex / 12);
  const month = monthIndex - year * 12 + 1;
  const lastDay = daysInMonth(year, month);
  return { year, month, day: schedule.endOfMonth ? lastDay : Math.min(schedule.maturity.day, lastDay) };
}

function monthsBefore(maturity: CalendarDate, date: CalendarDate): number {
  return (maturity.year - date.year) * 12 + (maturity.month - date.month);
}

export function resolveSchedule(input: CouponScheduleInput): ResolvedSchedule {
  const maturity = parseDate(input.maturity, 'maturity');
  const frequency = parseFrequency(input.frequency);
  const issueDate = parseOptionalDate(input.issueDate, 'issueDate');
  const datedDate = parseOptionalDate(input.datedDate, 'datedDate');
  if (issueDate && datedDate && key(issueDate) !== key(datedDate)) {
    throw ServiceError.invalid('datedDate', 'datedDate and issueDate name the same date; give one of them.');
  }
  const issue = issueDate ?? datedDate;
  if (issue) {
    requireBefore(
      issue,
      maturity,
      issueDate ? 'issueDate' : 'datedDate',
      'The issue date must be before maturity.',
    );
  }
  const schedule: ResolvedSchedule = {
    maturity,
    frequency,
    periodsPerYear: frequency === 0 ? 2 : frequency,
    endOfMonth: isLastDayOfMonth(maturity),
    issue,
  };
  const firstCoupon = parseOptionalDate(input.firstCouponDate, 'firstCouponDate');
  if (firstCoupon) {
    if (frequency === 0) {
      throw ServiceError.invalid('firstCouponDate', 'A zero-coupon bond has no coupon dates.');
    }
    if (issue) {
      requireBefore(issue, firstCoupon, 'firstCouponDate', 'firstCouponDate must be after the issue date.');
    }
    const index = (monthsBefore(maturity, firstCoupon) * frequency) / 12;
    if (!Number.isInteger(index) || index < 0 || key(scheduleDate(schedule, index)) !== key(firstCoupon)) {
      throw ServiceError.invalid(
        'firstCouponDate',
        'firstCouponDate must fall on the regular coupon schedule counted back from maturity.',
      );
    }
    schedule.firstCoupon = firstCoupon;
    schedule.firstCouponIndex = index;
  }
  return schedule;
}

/** The regular (quasi-)coupon period with start <= date < end; `date` must be before maturity. */
export function quasiPeriodContaining(schedule: ResolvedSchedule, date: CalendarDate): QuasiPeriod {
  const monthsPerPeriod = 12 / schedule.periodsPerYear;
  let index = Math.max(1, Math.ceil(monthsBefore(schedule.maturity, date) / monthsPerPeriod));
  while (daysBetween(scheduleDate(schedule, index), date) < 0) {
    index++;
  }
  while (index > 1 && daysBetween(scheduleDate(schedule, index - 1), date) >= 0) {
    index--;
  }
  return {
    start: scheduleDate(schedule, index),
    end: scheduleDate(schedule, index - 1),
    endIndex: index - 1,
  };
}

export interface QuasiSegment extends QuasiPeriod {
  /** Part of [from, to) inside this period. */
  from: CalendarDate;
  to: CalendarDate;
}

/** The quasi-coupon periods covering [from, to), each with the covered part; to <= maturity. */
export function quasiPeriodsBetween(
  schedule: ResolvedSchedule,
  from: CalendarDate,
  to: CalendarDate,
): QuasiSegment[] {
  const segments: QuasiSegment[] = [];
  let cursor = from;
  while (daysBetween(cursor, to) > 0) {
    if (daysBetween(cursor, schedule.maturity) <= 0) {
      throw ServiceError.invalid('end', 'end must not be after maturity.');
    }
    const period = quasiPeriodContaining(schedule, cursor);
    const segmentEnd = daysBetween(period.end, to) < 0 ? to : period.end;
    segments.push({ ...period, from: cursor, to: segmentEnd });
    cursor = segmentEnd;
  }
  return segments;
}

/** Validated settlement: on or after the issue date and before maturity. */
export function resolveSettlement(schedule: ResolvedSchedule, settlement: DateInput): CalendarDate {
  const date = parseDate(settlement, 'settlement');
  requireBefore(date, schedule.maturity, 'settlement', 'settlement must be before maturity.');
  if (schedule.issue && daysBetween(schedule.issue, date) < 0) {
    throw ServiceError.invalid('settlement', 'settlement must not be before the issue date.');
  }
  return date;
}

/** Number of coupons still to be paid after settlement (the coupon on the settlement date is not). */
function remainingCount(schedule: ResolvedSchedule, period: QuasiPeriod): number {
  if (schedule.frequency === 0) {
    return 0;
  }
  const afterSettlement = period.endIndex + 1;
  return schedule.firstCouponIndex === undefined
    ? afterSettlement
    : Math.min(afterSettlement, schedule.firstCouponIndex + 1);
}

/**
 * The coupon date on or before settlement; in the first coupon period this is the issue (dated) date,
 * or the regular quasi-coupon date when no issue date is known. null for zero coupons.
 */
export function previousCouponDate(settlement: DateInput, input: CouponScheduleInput): string | null {
  const schedule = resolveSchedule(input);
  const period = quasiPeriodContaining(schedule, resolveSettlement(schedule, settlement));
  if (schedule.frequency === 0) {
    return null;
  }
  const beforeFirstCoupon =
    schedule.firstCouponIndex !== undefined && period.endIndex + 1 > schedule.firstCouponIndex;
  const beforeIssue = schedule.issue !== undefined && daysBetween(period.start, schedule.issue) >= 0;
  if ((beforeFirstCoupon || beforeIssue) && schedule.issue) {
    return key(schedule.issue);
  }
  return key(period.start);
}

/** The first coupon date after settlement; null for zero coupons. */
export function nextCouponDate(settlement: DateInput, input: CouponScheduleInput): string | null {
  const dates = couponDates(settlement, input);
  return dates.length ? dates[0] : null;
}

/** Coupons payable after settlement up to and including maturity. */
export function remainingCoupons(settlement: DateInput, input: CouponScheduleInput): number {
  const schedule = resolveSchedule(input);
  return remainingCount(schedule, quasiPeriodContaining(schedule, resolveSettlement(schedule, settlement)));
}

/** The coupon dates after settlement, earliest first. */
export function couponDates(settlement: DateInput, input: CouponScheduleInput): string[] {
  const schedule = resolveSchedule(input);
  const count = remainingCount(
    schedule,
    quasiPeriodContaining(schedule, resolveSettlement(schedule, settlement)),
  );
  return Array.from({ length: count }, (_, i) => key(scheduleDate(schedule, count - 1 - i)));
}
