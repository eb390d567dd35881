import type { TestContext, TestCredentials } from '../support/app';

export interface Activity {
  id: string;
  account_id: string;
  activity_type: string;
  status: string;
  date: string;
  transaction_time: string;
  currency: string;
  net_amount: string;
  symbol: string | null;
  qty: string | null;
  price: string | null;
  per_share_amount: string | null;
  side: string | null;
  order_id: string | null;
  transaction_id: string | null;
  corporate_action_id: string | null;
  journal_id: string | null;
  conversion_id: string | null;
  description: string | null;
}

/** One page of an account's activities (the query string as given); anything but 200 throws. */
export async function activityPage(
  ctx: TestContext,
  creds: TestCredentials,
  accountId: string,
  query = '',
): Promise<Activity[]> {
  const res = await ctx.as(creds).get(`/v1/trading/accounts/${accountId}/activities${query}`);
  if (res.status !== 200) {
    throw new Error(`activities answered ${res.status}: ${res.text}`);
  }
  return res.body as Activity[];
}

/** Every activity of an account, oldest first, read page by page through page_token. */
export async function allActivities(
  ctx: TestContext,
  creds: TestCredentials,
  accountId: string,
  filters = '',
): Promise<Activity[]> {
  const out: Activity[] = [];
  for (;;) {
    const token = out.length ? `&page_token=${out[out.length - 1].id}` : '';
    const page = await activityPage(ctx, creds, accountId, `?direction=asc&page_size=100${filters}${token}`);
    out.push(...page);
    if (page.length < 100) {
      return out;
    }
  }
}

/** Cents of a decimal string with at most 2 decimals, as an integer (no float arithmetic on money). */
export function cents(text: string): bigint {
  const negative = text.startsWith('-');
  const [whole, frac = ''] = text.replace('-', '').split('.');
  const value = BigInt(whole) * 100n + BigInt(frac.padEnd(2, '0').slice(0, 2) || '0');
  return negative ? -value : value;
}

export function fromCents(value: bigint): string {
  const negative = value < 0n;
  const abs = negative ? -value : value;
  return `${negative ? '-' : ''}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
}

/** qty × price rounded half up to cents, in integers (the fill rule's principal, written apart). */
export function principalCents(qty: string, price: string): bigint {
  const scale = (t: string) => (t.split('.')[1] ?? '').length;
  const q = BigInt(qty.replace('.', ''));
  const p = BigInt(price.replace('.', ''));
  const decimals = scale(qty) + scale(price);
  const raw = q * p; // units of 10^-decimals
  if (decimals <= 2) {
    return raw * 10n ** BigInt(2 - decimals);
  }
  const d = 10n ** BigInt(decimals - 2);
  return (raw + d / 2n) / d;
}

/** Sum of executed net_amounts per currency, in cents. */
export function sumByCurrency(activities: Activity[]): Map<string, bigint> {
  const sums = new Map<string, bigint>();
  for (const a of activities.filter((x) => x.status === 'executed')) {
    sums.set(a.currency, (sums.get(a.currency) ?? 0n) + cents(a.net_amount));
  }
  return sums;
}

/**
 * docs/decisions.md, Activities: for each currency, the account's executed activities' net_amounts sum
 * to its settled cash (the balances route's `cash`), the account having started from nothing.
 * Answers the per-currency pairs so a failure names the currency.
 */
export async function netAmountsAndCash(
  ctx: TestContext,
  creds: TestCredentials,
  accountId: string,
): Promise<{ activities: Record<string, string>; cash: Record<string, string> }> {
  const res = await ctx.as(creds).get(`/v1/wallet/accounts/${accountId}/balances`);
  if (res.status !== 200) {
    throw new Error(`balances answered ${res.status}: ${res.text}`);
  }
  const cash: Record<string, string> = {};
  for (const row of res.body as Array<{ currency: string; cash: string }>) {
    cash[row.currency] = fromCents(cents(row.cash));
  }
  const activities: Record<string, string> = {};
  for (const [currency, sum] of sumByCurrency(await allActivities(ctx, creds, accountId))) {
    activities[currency] = fromCents(sum);
  }
  for (const currency of Object.keys(cash)) {
    activities[currency] ??= '0.00';
  }
  for (const currency of Object.keys(activities)) {
    cash[currency] ??= '0.00';
  }
  return { activities, cash };
}
