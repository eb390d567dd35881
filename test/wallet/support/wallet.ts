import { Webhook } from 'standardwebhooks';
import { isRemote, TestContext, TestCredentials } from '../../support/app';
import { Delivery, WebhookReceiver } from '../../investors/receiver';

export {
  activeInvestor,
  FAILING_ACCOUNT,
  fundedAccount,
  fundingBody,
  linkBankAccount,
  SETTLING_ACCOUNT,
} from '../../support/factories';

export async function balances(ctx: TestContext, creds: TestCredentials, accountId: string) {
  const res = await ctx.as(creds).get(`/v1/wallet/accounts/${accountId}/balances`);
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
  const created = await ctx.as(creds).post('/v1/webhooks', { name: 'wallet', url, eventTypeNames });
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
