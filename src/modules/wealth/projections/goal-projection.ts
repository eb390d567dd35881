import type Decimal from 'decimal.js';
import { Money } from 'src/core/money/money';
import { addMonths, wholeMonthsBetween } from 'src/modules/wealth/projections/calendar-months';

/** Goals further out than this are never projected as reached (100 years of months). */
export const MAX_PROJECTION_MONTHS = 1200;

/**
 * A target date is at most this many months ahead (60 years): it bounds the monthly path and the
 * simulated range a read computes (20 goals × 720 months × 500 paths at most).
 */
export const MAX_HORIZON_MONTHS = 720;

/** What one goal's projection needs, amounts and rates as decimals. */
export interface GoalProjectionInput {
  current: Decimal;
  target: Decimal;
  monthlyContribution: Decimal;
  /** Expected return, a yearly decimal fraction (0.06 is 6 %). */
  annualReturn: Decimal;
  /** Yearly inflation as a decimal fraction, or null to project in nominal money. */
  inflation: Decimal | null;
  /** Today and the goal's target date, YYYY-MM-DD. */
  today: string;
  targetDate: string;
  /** Decimals of the plan's currency. */
  dp: number;
}

export interface GoalProgress {
  progressPercent: string;
  amountRemaining: string;
  projectedCompletionDate: string | null;
  onTrack: boolean;
}

/**
 * The monthly rate of the projection. Nominal: r / 12 (monthly compounding of the yearly rate).
 * With inflation π the amounts are in today's money: the real monthly rate
 * (1 + r/12) / (1 + π/12) − 1, contributions keeping pace with inflation.
 */
export function monthlyRate(annualReturn: Decimal, inflation: Decimal | null): Decimal {
  const nominal = annualReturn.div(12);
  if (inflation === null) {
    return nominal;
  }
  return nominal.plus(1).div(inflation.div(12).plus(1)).minus(1);
}

/**
 * The projected amount at the end of each month 1..months: v(k) = v(k−1)·(1 + i) + C, the
 * contribution C paid at month end (an ordinary annuity). Unrounded.
 */
export function projectedPath(input: GoalProjectionInput, months: number): Decimal[] {
  const growth = monthlyRate(input.annualReturn, input.inflation).plus(1);
  const path: Decimal[] = [];
  let value: Decimal = new Money(input.current);
  for (let k = 1; k <= months; k += 1) {
    value = value.times(growth).plus(input.monthlyContribution);
    path.push(value);
  }
  return path;
}

/** Months until the projected amount first reaches the target (0 when it already has), or null. */
export function monthsToTarget(input: GoalProjectionInput): number | null {
  if (input.current.gte(input.target)) {
    return 0;
  }
  const growth = monthlyRate(input.annualReturn, input.inflation).plus(1);
  let value: Decimal = new Money(input.current);
  for (let k = 1; k <= MAX_PROJECTION_MONTHS; k += 1) {
    value = value.times(growth).plus(input.monthlyContribution);
    if (value.gte(input.target)) {
      return k;
    }
  }
  return null;
}

/** The figures every goal carries: progress, what remains, when it is projected to be reached. */
export function goalProgress(input: GoalProjectionInput): GoalProgress {
  const { current, target, dp } = input;
  const percent = current.lte(0) ? new Money(0) : Money.min(current.div(target).times(100), 100);
  const months = monthsToTarget(input);
  const completion = months === null ? null : addMonths(input.today, months);
  return {
    progressPercent: percent.toFixed(2, Money.ROUND_DOWN),
    amountRemaining: Money.max(target.minus(current), 0).toFixed(dp),
    projectedCompletionDate: completion,
    onTrack: completion !== null && completion <= input.targetDate,
  };
}

/** Months of contributions until the target date (at least 0). */
export function monthsUntilTarget(input: Pick<GoalProjectionInput, 'today' | 'targetDate'>): number {
  return wholeMonthsBetween(input.today, input.targetDate);
}
