import { Webhook } from 'standardwebhooks';
import { isRemote, TestContext, TestCredentials } from '../../support/app';
import { createInvestor } from '../../investors/fixtures';
import { Delivery, WebhookReceiver } from '../../investors/receiver';

/** Test bank account numbers (docs/decisions.md, Funding sources, deposits and withdrawals): the first settles, the second fails. */
export const SETTLING_ACCOUNT = '000123456789';
export const FAILING_ACCOUNT = '000111111116';

/** Requests as one key: the wallet specs' client, the context's own (ctx.as). */
export function as(ctx: TestContext, creds: TestCredentials) {
  return ctx.as(creds);
}

/** An investor whose account is ACTIVE (KYC approved by the test helper), through the API. */
export async function activeInvestor(
  ctx: TestContext,
  creds: TestCredentials,
  overrides: Record<string, unknown> = {},
): Promise<{ id: string; account_id: string }> {
  const investor = await createInvestor(ctx, creds, overrides);
  const approved = await as(ctx, creds).post(`/v1/test_helpers/investors/${investor.id}/kyc/approve`);
  if (approved.status !== 200) {
    throw new Error(`KYC approval failed: ${approved.status} ${JSON.stringify(approved.body)}`);
  }
  return { id: investor.id as string, account_id: investor.account_id as string };
}

/** Links a US bank account (the settling test number unless given). */
export async function linkBankAccount(
  ctx: TestContext,
  creds: TestCredentials,
  investorId: string,
  overrides: Record<string, unknown> = {},
): Promise<{ id: string; currency: string }> {
  const res = await as(ctx, creds).post(`/v1/investors/${investorId}/funding-sources`, {
    type: 'bank_account',
    account_holder_name: 'Ada Obi',
    account_number: SETTLING_ACCOUNT,
    routing_number: '110000000',
    currency: 'USD',
    country: 'US',
    ...overrides,
  });
  if (res.status !== 201) {
    throw new Error(`funding source failed: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return res.body as { id: string; currency: string };
}

/** The spec's funding body. */
export function fundingBody(bankAccountId: string, amount: string, extra: Record<string, unknown> = {}) {
  return {
    amount,
    funding_details: {
      funding_type: 'fiat',
      fiat_currency: 'USD',
      bank_account_id: bankAccountId,
      method: 'ach',
    },
    ...extra,
  };
}

/** An active investor with a linked bank account and `amount` of settled cash (deposit + settle helper). */
export async function fundedAccount(ctx: TestContext, creds: TestCredentials, amount: string) {
  const investor = await activeInvestor(ctx, creds);
  const bank = await linkBankAccount(ctx, creds, investor.id);
  const client = as(ctx, creds);
  const deposit = await client.post(
    `/v1/wallet/accounts/${investor.account_id}/funding`,
    fundingBody(bank.id, amount),
  );
  const settled = await client.post(
    `/v1/test_helpers/wallet/transactions/${deposit.body.transaction_id}/settle`,
  );
  if (settled.status !== 200) {
    throw new Error(`settle failed: ${settled.status} ${JSON.stringify(settled.body)}`);
  }
  return { investor, bank };
}

export async function balances(ctx: TestContext, creds: TestCredentials, accountId: string) {
  const res = await as(ctx, creds).get(`/v1/wallet/accounts/${accountId}/balances`);
  expect(res.status).toBe(200);
  return res.body as Array<Record<string, string>>;
}

/**
 * The partner's webhook endpoint for a spec: a receiver (today the loopback WebhookReceiver; a
 * sandbox webhook sink when QA runs remotely) registered for `eventTypeNames`. `event(name, txn)`
 * waits for the delivery of that event about that transaction, checks its Standard Webhooks
 * signature and returns its payload.
 */
export async function partnerWebhook(ctx: TestContext, creds: TestCredentials, eventTypeNames: string[]) {
  const receiver = new WebhookReceiver();
  const url = await receiver.start({ ctx, creds });
  const created = await as(ctx, creds).post('/v1/webhooks', { name: 'wallet', url, eventTypeNames });
  if (created.status !== 201) {
    throw new Error(`webhook failed: ${created.status} ${JSON.stringify(created.body)}`);
  }
  const signer = new Webhook(created.body.secret as string);
  const matching = (name: string, transactionId: string) =>
    receiver.deliveries.filter((d) => d.json.event === name && d.json.data.transaction_id === transactionId);
  return {
    async event(name: string, transactionId: string, timeoutMs = 10_000): Promise<Delivery['json']> {
      const deadline = Date.now() + timeoutMs;
      while ((await receiver.refresh(), matching(name, transactionId)).length === 0) {
        if (Date.now() > deadline) {
          throw new Error(
            `No ${name} for ${transactionId}; got ${receiver.deliveries.map((d) => d.json.event).join(', ')}`,
          );
        }
        await new Promise((r) => setTimeout(r, isRemote ? 200 : 50));
      }
      const delivery = matching(name, transactionId)[0];
      expect(signer.verify(delivery.body, delivery.headers as Record<string, string>)).toBeTruthy();
      return delivery.json;
    },
    /** Names of the events received about one transaction, in arrival order. */
    eventsFor: (transactionId: string) =>
      receiver.deliveries
        .filter((d) => d.json.data.transaction_id === transactionId)
        .map((d) => d.json.event),
    stop: () => receiver.stop(),
  };
}
