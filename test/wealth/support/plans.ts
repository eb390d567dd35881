import Decimal from 'decimal.js';
import type { TestContext, TestCredentials } from '../../support/app';

export { freezeClock } from '../../support/clock';

/** Requests as one key, with the verbs the plan routes use: the context's client (ctx.as). */
export function planClient(ctx: TestContext, creds: TestCredentials) {
  return ctx.as(creds);
}

export const planPath = (accountId: string) => `/v1/wealth/accounts/${accountId}/financial-plan`;

export function retirementGoal(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Retirement',
    goal_type: 'retirement',
    target_amount: '100000.00',
    target_date: '2059-01-31',
    current_amount: '10000.00',
    monthly_contribution: '500.00',
    ...overrides,
  };
}

/**
 * Future value of a present sum plus an ordinary annuity (contributions at period end):
 *   FV(n) = PV·(1 + i)^n + PMT·((1 + i)^n − 1) / i
 * with i the monthly rate. Computed here on its own, in decimal.js, to check the service's path.
 */
export function futureValue(pv: string, pmt: string, i: Decimal, n: number): Decimal {
  const D = Decimal.clone({ precision: 40 });
  const growth = new D(i).plus(1).pow(n);
  return new D(pv).times(growth).plus(new D(pmt).times(growth.minus(1)).div(i));
}

/**
 * Months until FV(n) ≥ target, from the number-of-periods formula of the same annuity:
 *   n = ln((FV·i + PMT) / (PV·i + PMT)) / ln(1 + i), rounded up.
 */
export function monthsToReach(pv: string, pmt: string, target: string, i: Decimal): number {
  const D = Decimal.clone({ precision: 40 });
  const ratio = new D(target).times(i).plus(pmt).div(new D(pv).times(i).plus(pmt));
  return Math.ceil(ratio.ln().div(new D(i).plus(1).ln()).toNumber());
}

/** Calendar months after a YYYY-MM-DD date, the day clamped to the month's end. */
export function monthsAfter(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number);
  const first = new Date(Date.UTC(y, m - 1 + months, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  first.setUTCDate(Math.min(d, last));
  return first.toISOString().slice(0, 10);
}
