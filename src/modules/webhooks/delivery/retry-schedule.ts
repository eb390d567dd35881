/** Spec, Events → Delivery: delays before the five retries (about 1 min, 5 min, 30 min, 2 h, 8 h). */
export const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3600_000, 8 * 3600_000] as const;

/** Each delay varies by up to ±5 % so retries of many deliveries do not arrive in lockstep. */
export const RETRY_JITTER = 0.05;

/** The first attempt plus five retries. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/**
 * Delay before the next attempt after attempt `failedAttempt` (1-based) failed, or null when
 * it was the last one and the delivery goes to the dead letters.
 */
export function retryDelayMs(failedAttempt: number, random: () => number = Math.random): number | null {
  const base = RETRY_DELAYS_MS[failedAttempt - 1];
  if (base === undefined) {
    return null;
  }
  return Math.round(base * (1 + RETRY_JITTER * (2 * random() - 1)));
}
