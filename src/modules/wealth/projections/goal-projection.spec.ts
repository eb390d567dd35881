import Decimal from 'decimal.js';
import fc from 'fast-check';
import { Money } from 'src/core/money/money';
import {
  addMonths,
  isCalendarDate,
  wholeMonthsBetween,
} from 'src/modules/wealth/projections/calendar-months';
import {
  goalProgress,
  GoalProjectionInput,
  MAX_PROJECTION_MONTHS,
  monthlyRate,
  monthsToTarget,
  projectedPath,
} from 'src/modules/wealth/projections/goal-projection';
import { projectionRange, rangeSeed } from 'src/modules/wealth/projections/projection-range';

describe('goal projection', () => {
  it('follows the closed-form future value month by month', () => {
    const path = projectedPath(goal(), 120);
    const i = new Money('0.005');
    for (const n of [1, 12, 60, 120]) {
      expect(path[n - 1].toFixed(2)).toBe(closedFormFutureValue('10000', '500', i, n).toFixed(2));
    }
    expect(path[119].toFixed(2)).toBe('100133.64');
  });

  it('reaches the target in the month the number-of-periods formula gives', () => {
    // n = ln((FV·i + PMT) / (PV·i + PMT)) / ln(1 + i), rounded up to whole months.
    const i = new Money('0.005');
    const n = Math.ceil(
      new Money('100000')
        .times(i)
        .plus(500)
        .div(new Money('10000').times(i).plus(500))
        .ln()
        .div(i.plus(1).ln())
        .toNumber(),
    );
    expect(monthsToTarget(goal())).toBe(n);
    expect(goalProgress(goal())).toEqual({
      progressPercent: '10.00',
      amountRemaining: '90000.00',
      projectedCompletionDate: addMonths('2027-01-31', n),
      onTrack: addMonths('2027-01-31', n) <= '2037-01-31',
    });
  });

  it('uses the real rate with inflation, and never reaches a target it cannot', () => {
    expect(monthlyRate(new Money('0.06'), new Money('0.03')).toFixed(12)).toBe(
      new Money('1.005').div('1.0025').minus(1).toFixed(12),
    );
    expect(
      monthsToTarget(goal({ monthlyContribution: new Money(0), annualReturn: new Money(0) })),
    ).toBeNull();
    expect(goalProgress(goal({ current: new Money('150000') }))).toMatchObject({
      progressPercent: '100.00',
      amountRemaining: '0.00',
      projectedCompletionDate: '2027-01-31',
      onTrack: true,
    });
  });

  it('adds calendar months clamped to the month end', () => {
    expect(addMonths('2027-01-31', 1)).toBe('2027-02-28');
    expect(addMonths('2028-01-31', 1)).toBe('2028-02-29');
    expect(addMonths('2027-11-30', 3)).toBe('2028-02-29');
    expect(wholeMonthsBetween('2027-01-31', '2027-02-28')).toBe(1);
    expect(wholeMonthsBetween('2027-01-31', '2027-02-27')).toBe(0);
    expect(wholeMonthsBetween('2027-01-15', '2037-01-15')).toBe(120);
    expect(isCalendarDate('2027-02-29')).toBe(false);
    expect(isCalendarDate('2028-02-29')).toBe(true);
  });

  it('draws the same range for the same seed, ordered p10 ≤ p50 ≤ p90, wider with more risk', () => {
    const seed = rangeSeed('fp_x', 1, 'goal_y');
    const low = projectionRange(goal(), 120, 'low', seed);
    expect(projectionRange(goal(), 120, 'low', seed)).toEqual(low);
    const high = projectionRange(goal(), 120, 'high', seed);
    for (const r of [low, high]) {
      expect(new Money(r.p10).lte(r.p50) && new Money(r.p50).lte(r.p90)).toBe(true);
    }
    const spread = (r: typeof low) => new Money(r.p90).minus(r.p10);
    expect(spread(high).gt(spread(low))).toBe(true);
    // The median sits near the deterministic path (lognormal factors with the same mean).
    const expected = closedFormFutureValue('10000', '500', new Money('0.005'), 120);
    expect(new Money(low.p50).div(expected).minus(1).abs().lt('0.05')).toBe(true);
    expect(rangeSeed('fp_x', 2, 'goal_y')).not.toBe(seed);
  });

  it('property: the path is the closed form, and completion is the first month at or above the target', () => {
    const cents = (max: number) => fc.integer({ min: 0, max }).map((c) => new Money(c).div(100));
    fc.assert(
      fc.property(
        cents(50_000_000),
        cents(2_000_000),
        fc.integer({ min: 1, max: 100_000_000 }).map((c) => new Money(c).div(100)),
        fc.integer({ min: 1, max: 300 }).map((bp) => new Money(bp).div(10_000)),
        fc.option(fc.integer({ min: 0, max: 100 }).map((bp) => new Money(bp).div(10_000))),
        (current, monthly, target, annualReturn, inflation) => {
          const input = goal({ current, monthlyContribution: monthly, target, annualReturn, inflation });
          const i = monthlyRate(annualReturn, inflation);
          const path = projectedPath(input, 36);
          for (const n of [1, 12, 36]) {
            expect(path[n - 1].toFixed(2)).toBe(closedFormFutureValue(current, monthly, i, n).toFixed(2));
          }
          const months = monthsToTarget(input);
          if (months === null) {
            // Not within 100 years of months.
            expect(projectedPath(input, MAX_PROJECTION_MONTHS)[MAX_PROJECTION_MONTHS - 1].lt(target)).toBe(
              true,
            );
            return;
          }
          const at = (n: number) => (n === 0 ? current : projectedPath(input, n)[n - 1]);
          expect(at(months).gte(target)).toBe(true);
          if (months > 0) {
            expect(at(months - 1).lt(target)).toBe(true);
          }
        },
      ),
      { numRuns: 100, seed: 20261122 },
    );
  });
});

const goal = (overrides: Partial<GoalProjectionInput> = {}): GoalProjectionInput => ({
  current: new Money('10000'),
  target: new Money('100000'),
  monthlyContribution: new Money('500'),
  annualReturn: new Money('0.06'),
  inflation: null,
  today: '2027-01-31',
  targetDate: '2037-01-31',
  dp: 2,
  ...overrides,
});

/**
 * Future value of a present sum plus an ordinary annuity (payments at period end):
 *   FV(n) = PV·(1 + i)^n + PMT·((1 + i)^n − 1) / i
 */
function closedFormFutureValue(pv: Decimal.Value, pmt: Decimal.Value, i: Decimal, n: number): Decimal {
  const growth = i.plus(1).pow(n);
  return new Money(pv).times(growth).plus(new Money(pmt).times(growth.minus(1)).div(i));
}
