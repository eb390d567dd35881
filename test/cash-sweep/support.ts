/**
 * An independent computation of the cash sweep formulas (docs/decisions.md, Cash sweep and the Cash Management add-on), in integers:
 * amounts in units of 10^-8, divisions rounded half-even by hand. It shares no code with the
 * service (which uses decimal.js), so agreeing to the last digit means both follow the rule.
 */
const E8 = 100_000_000n;

function divHalfEven(n: bigint, d: bigint): bigint {
  const q = n / d;
  const r = n % d;
  if (2n * r > d || (2n * r === d && q % 2n === 1n)) {
    return q + 1n;
  }
  return q;
}

function toUnits(text: string, decimals: number): bigint {
  const [whole, frac = ''] = text.split('.');
  return BigInt(whole) * 10n ** BigInt(decimals) + BigInt(frac.padEnd(decimals, '0').slice(0, decimals));
}

function fromUnits(units: bigint, decimals: number): string {
  const scale = 10n ** BigInt(decimals);
  return `${units / scale}.${(units % scale).toString().padStart(decimals, '0')}`;
}

/** cash × bps / 10,000 / 365, half-even to 8 decimals, in 10^-8 units. */
export function dayInterestUnits(cash: string, bps: number): bigint {
  return divHalfEven(toUnits(cash, 8) * BigInt(bps), 10_000n * 365n);
}

export const units8 = (u: bigint) => fromUnits(u, 8);

/** A month's payout: the sum of the days, half-even to cents. */
export function payoutCents(dayUnits: bigint[]): string {
  const total = dayUnits.reduce((a, b) => a + b, 0n);
  return fromUnits(divHalfEven(total, E8 / 100n), 2);
}

/** Every date from `first` to `last` inclusive (YYYY-MM-DD). */
export function datesBetween(first: string, last: string): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${first}T00:00:00Z`); t <= Date.parse(`${last}T00:00:00Z`); t += 86_400_000) {
    out.push(new Date(t).toISOString().slice(0, 10));
  }
  return out;
}

export const LEGACY_403 = {
  status: 'error',
  code: 'PRODUCT_NOT_ENABLED',
  message: expect.any(String),
};
