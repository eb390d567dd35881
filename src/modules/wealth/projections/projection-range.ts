import { createHash } from 'node:crypto';
import type Decimal from 'decimal.js';
import { Money } from 'src/core/money/money';
import { GoalProjectionInput, monthlyRate } from 'src/modules/wealth/projections/goal-projection';

export type RiskCapacity = 'low' | 'medium' | 'high';

/** Yearly volatility of returns by the plan's risk capacity. */
export const VOLATILITY: Readonly<Record<RiskCapacity, string>> = {
  low: '0.06',
  medium: '0.12',
  high: '0.20',
};

/** Simulated paths per goal: enough for stable deciles, cheap enough to answer in a request. */
export const SIMULATED_PATHS = 500;

const SCALE = 10n ** 12n;

export interface ProjectionRange {
  seed: string;
  paths: number;
  volatility: string;
  p10: string;
  p50: string;
  p90: string;
}

/** The seed of a goal's range: the same plan version and goal always draw the same paths. */
export function rangeSeed(financialPlanId: string, version: number, goalId: string): string {
  return createHash('sha256').update(`${financialPlanId}:${version}:${goalId}`).digest('hex').slice(0, 16);
}

/**
 * p10 / p50 / p90 of the amount at the end of `months`, over SIMULATED_PATHS paths. Each month's
 * growth factor is lognormal with the projection's mean (1 + i) and the risk capacity's volatility,
 * drawn from a PRNG seeded by `seed`. Amounts are whole minor units throughout (see simulatePath).
 */
export function projectionRange(
  input: GoalProjectionInput,
  months: number,
  risk: RiskCapacity,
  seed: string,
): ProjectionRange {
  const unit = 10n ** BigInt(input.dp);
  const toMinor = (value: Decimal) => BigInt(value.times(unit.toString()).toFixed(0, Money.ROUND_HALF_EVEN));
  const start = toMinor(input.current);
  const contribution = toMinor(input.monthlyContribution);
  const mean = Math.log(monthlyRate(input.annualReturn, input.inflation).plus(1).toNumber());
  const sigma = Number(VOLATILITY[risk]) / Math.sqrt(12);
  const drift = mean - (sigma * sigma) / 2;
  const normal = normals(mulberry32(Number.parseInt(seed.slice(0, 8), 16)));
  const finals: bigint[] = [];
  for (let p = 0; p < SIMULATED_PATHS; p += 1) {
    finals.push(simulatePath(start, contribution, months, () => Math.exp(drift + sigma * normal())));
  }
  finals.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const at = (q: number) =>
    new Money(finals[Math.round(q * (finals.length - 1))].toString()).div(unit.toString());
  return {
    seed,
    paths: SIMULATED_PATHS,
    volatility: VOLATILITY[risk],
    p10: at(0.1).toFixed(input.dp),
    p50: at(0.5).toFixed(input.dp),
    p90: at(0.9).toFixed(input.dp),
  };
}

/**
 * One path's amount after `months`, in whole minor units rounded each month. While the amount is
 * below 2^53 it is an integer held exactly by a JavaScript number (the product with the growth
 * factor is rounded back to a whole minor unit at once); above that it continues in BigInt with
 * the factor fixed to 12 decimals. Either way the amount is a count of minor units, never a
 * fraction of one.
 */
function simulatePath(start: bigint, contribution: bigint, months: number, growth: () => number): bigint {
  const step = Number(contribution);
  let value = Number.isSafeInteger(Number(start)) && Number.isSafeInteger(step) ? Number(start) : null;
  let big = value === null ? start : 0n;
  for (let m = 0; m < months; m += 1) {
    const factor = growth();
    if (value !== null) {
      const next = Math.round(value * factor) + step;
      if (Number.isSafeInteger(next)) {
        value = next;
        continue;
      }
      big = BigInt(value);
      value = null;
    }
    big = (big * BigInt(Math.round(factor * 1e12))) / SCALE + contribution;
  }
  return value !== null ? BigInt(value) : big;
}

/** A small, well-known 32-bit PRNG: the same seed gives the same sequence on every machine. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Box–Muller: standard normal draws, two from each pair of uniforms. */
function normals(random: () => number): () => number {
  let spare: number | null = null;
  return () => {
    if (spare !== null) {
      const z = spare;
      spare = null;
      return z;
    }
    const radius = Math.sqrt(-2 * Math.log(1 - random()));
    const angle = 2 * Math.PI * random();
    spare = radius * Math.sin(angle);
    return radius * Math.cos(angle);
  };
}
