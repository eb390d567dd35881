import Decimal from 'decimal.js';
import { Money } from 'src/core/money/money';
import { parseBasis, parseNonNegative } from 'src/modules/fixed-income/bond-math/bond-input';
import { BondInput } from 'src/modules/fixed-income/bond-math/bond-types';
import {
  quasiPeriodContaining,
  quasiPeriodsBetween,
  resolveSchedule,
  resolveSettlement,
} from 'src/modules/fixed-income/bond-math/coupon-schedule';
import { accrualDays, periodLength } from 'src/modules/fixed-income/bond-math/day-count';
import { daysBetween } from 'src/modules/markets/calendar/calendar-date';

/**
 * Accrued interest per 100 face at settlement. Interest runs from the previous coupon date, or from the
 * issue (dated) date during the first period. A first period that is odd (short or long) is split into
 * regular quasi-coupon periods, each accruing days / period length of a regular coupon, which is how
 * the spreadsheet ACCRINT function and ICMA Rule 251 both treat it.
 */
export function accruedInterest(input: BondInput): Decimal {
  const basis = parseBasis(input.basis);
  const rate = parseNonNegative(input.couponRate, 'couponRate');
  const schedule = resolveSchedule(input);
  const settlement = resolveSettlement(schedule, input.settlement);
  if (schedule.frequency === 0 || rate.isZero()) {
    return new Money(0);
  }
  const regular = quasiPeriodContaining(schedule, settlement);
  const inFirstPeriod =
    (schedule.firstCouponIndex !== undefined && regular.endIndex + 1 > schedule.firstCouponIndex) ||
    (schedule.issue !== undefined && daysBetween(regular.start, schedule.issue) > 0);
  const accrualStart = inFirstPeriod && schedule.issue ? schedule.issue : regular.start;

  let periods = new Money(0);
  for (const segment of quasiPeriodsBetween(schedule, accrualStart, settlement)) {
    const length = periodLength(basis, segment.start, segment.end, schedule.periodsPerYear);
    periods = periods.plus(new Money(accrualDays(basis, segment.from, segment.to)).div(length));
  }
  return rate.times(100).div(schedule.periodsPerYear).times(periods);
}
