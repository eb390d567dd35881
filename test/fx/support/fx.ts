import Decimal from 'decimal.js';
import { Webhook } from 'standardwebhooks';
import { isRemote, type TestContext, type TestCredentials } from '../../support/app';
import { WebhookReceiver } from '../../investors/receiver';
import { depositSettled } from '../../support/factories';
import { activeInvestor, linkBankAccount } from '../../wallet/support/wallet';

export { depositSettled };

/** Decimals of the FX currencies (ISO 4217). */
export const MINOR: Record<string, number> = { USD: 2, NGN: 2, KES: 2 };

/** A Nigerian bank account (bank code, not a routing number) in naira. */
export const NAIRA_BANK = {
  account_number: '000123456789',
  routing_number: undefined,
  bank_code: '058',
  currency: 'NGN',
  country: 'NG',
};

/** An ACTIVE investor holding `naira` of settled NGN (deposits of at most 1,000,000 each). */
export async function nairaInvestor(ctx: TestContext, creds: TestCredentials, naira: string) {
  const investor = await activeInvestor(ctx, creds);
  const bank = await linkBankAccount(ctx, creds, investor.id, NAIRA_BANK);
  let left = new Decimal(naira);
  while (left.gt(0)) {
    const part = Decimal.min(left, 1_000_000);
    await depositSettled(ctx, creds, investor.account_id, bank, part.toFixed(2));
    left = left.minus(part);
  }
  return { investor, bank };
}

/** Sets a test-mode mid rate (and its inverse for the reverse pair). */
export async function setFxRate(
  ctx: TestContext,
  creds: TestCredentials,
  from: string,
  to: string,
  rate: string | null,
): Promise<void> {
  const res = await ctx.as(creds).post('/v1/test_helpers/fx-rates', {
    from_currency: from,
    to_currency: to,
    rate,
  });
  if (res.status !== 200) {
    throw new Error(`fx rate failed: ${res.status} ${JSON.stringify(res.body)}`);
  }
}

/** The balances of an account keyed by currency. */
export async function balancesByCurrency(ctx: TestContext, creds: TestCredentials, accountId: string) {
  const res = await ctx.as(creds).get(`/v1/wallet/accounts/${accountId}/balances`);
  expect(res.status).toBe(200);
  return Object.fromEntries(
    (res.body as Array<Record<string, string>>).map((b) => [b.currency, b]),
  ) as Record<string, Record<string, string>>;
}

/**
 * The model's computation of a conversion (written from docs/decisions.md, not from the service):
 * rate = mid × (1 − bps / 10,000) to 8 places half-even; given an amount, to_amount = amount × rate
 * rounded down; given to_amount, from_amount = to_amount ÷ rate rounded up; spread = from_amount at
 * mid, rounded half-even to to_currency's unit, minus to_amount.
 */
export function expectedConversion(input: {
  from: string;
  to: string;
  mid: string;
  spreadBps: number;
  amount?: string;
  toAmount?: string;
}) {
  const D = Decimal.clone({ precision: 50 });
  const mid = new D(input.mid);
  const rate = mid
    .times(new D(1).minus(new D(input.spreadBps).div(10_000)))
    .toDecimalPlaces(8, D.ROUND_HALF_EVEN);
  const from =
    input.amount !== undefined
      ? new D(input.amount)
      : new D(input.toAmount!).div(rate).toDecimalPlaces(MINOR[input.from], D.ROUND_UP);
  const to =
    input.toAmount !== undefined
      ? new D(input.toAmount)
      : from.times(rate).toDecimalPlaces(MINOR[input.to], D.ROUND_DOWN);
  const spread = from.times(mid).toDecimalPlaces(MINOR[input.to], D.ROUND_HALF_EVEN).minus(to);
  return {
    rate: rate.toFixed(8),
    mid_rate: mid.toFixed(8),
    from_amount: from.toFixed(MINOR[input.from]),
    to_amount: to.toFixed(MINOR[input.to]),
    spread: spread.toFixed(MINOR[input.to]),
  };
}

/**
 * A partner's webhook endpoint (a loopback receiver, or the sandbox's sink remotely) subscribed to
 * `eventTypeNames`; `waitFor(name, match)` returns the first delivery of that event whose data
 * matches, its Standard Webhooks signature checked.
 */
export async function eventWebhook(ctx: TestContext, creds: TestCredentials, eventTypeNames: string[]) {
  const receiver = new WebhookReceiver();
  const url = await receiver.start({ ctx, creds });
  const created = await ctx.as(creds).post('/v1/webhooks', { name: 'fx-journals', url, eventTypeNames });
  if (created.status !== 201) {
    throw new Error(`webhook failed: ${created.status} ${JSON.stringify(created.body)}`);
  }
  const signer = new Webhook(created.body.secret as string);
  return {
    async waitFor(name: string, match: (data: Record<string, any>) => boolean, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        await receiver.refresh();
        const found = receiver.deliveries.find((d) => d.json.event === name && match(d.json.data));
        if (found) {
          expect(signer.verify(found.body, found.headers as Record<string, string>)).toBeTruthy();
          return found.json;
        }
        if (Date.now() > deadline) {
          throw new Error(`No ${name}; got ${receiver.deliveries.map((d) => d.json.event).join(', ')}`);
        }
        await new Promise((r) => setTimeout(r, isRemote ? 200 : 50));
      }
    },
    stop: () => receiver.stop(),
  };
}

/** The tenant's firm account through the API, funded with `usd` of settled cash when given. */
export async function firmAccount(ctx: TestContext, creds: TestCredentials, usd?: string) {
  const client = ctx.as(creds);
  const res = await client.get('/v1/firm-account');
  if (res.status !== 200) {
    throw new Error(`firm account failed: ${res.status} ${JSON.stringify(res.body)}`);
  }
  const accountId = res.body.account_id as string;
  if (usd !== undefined) {
    const bank = await client.post('/v1/firm-account/funding-sources', {
      type: 'bank_account',
      account_holder_name: 'Partner Treasury',
      account_number: '000123456789',
      routing_number: '110000000',
      currency: 'USD',
      country: 'US',
    });
    if (bank.status !== 201) {
      throw new Error(`firm bank failed: ${bank.status} ${JSON.stringify(bank.body)}`);
    }
    let left = new Decimal(usd);
    while (left.gt(0)) {
      const part = Decimal.min(left, 1_000_000);
      await depositSettled(ctx, creds, accountId, bank.body, part.toFixed(2));
      left = left.minus(part);
    }
  }
  return accountId;
}

/** POST /v1/journals as a tenant key. */
export function journal(
  ctx: TestContext,
  creds: TestCredentials,
  body: Record<string, unknown>,
  key?: string,
) {
  return ctx.as(creds).post('/v1/journals', body, key);
}
