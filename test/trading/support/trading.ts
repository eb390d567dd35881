import { Webhook } from 'standardwebhooks';
import { isRemote, type TestContext, type TestCredentials } from '../../support/app';
import type { Delivery } from '../../investors/receiver';
import { WebhookReceiver } from '../../investors/receiver';
import { activeInvestor, fundedAccount } from '../../support/factories';

export { advanceClock, freezeClock } from '../../support/clock';

/**
 * Monday 1 March 2027, 10:00 New York, for the bond specs: the bond reference data (coupon dates,
 * close prices, maturities from 2028) is of this time, so these dates cannot move far ahead with the
 * rest; they work until real time passes them.
 */
export const BOND_MONDAY_OPEN = '2027-03-01T15:00:00Z';
/**
 * Monday 1 March 2049, 10:00 New York: the regular session is open. Far ahead of real time, so a
 * spec freezing the clock here works on any day (2049's calendar is 2027's, Easter aside).
 */
export const MONDAY_OPEN = '2049-03-01T15:00:00Z';
/** Saturday 6 March 2049, noon New York: closed. */
export const SATURDAY = '2049-03-06T17:00:00Z';

/** Sets a test-mode price (the price helper); the engine evaluates the symbol's orders before it answers. */
export async function setPrice(ctx: TestContext, creds: TestCredentials, symbol: string, price: string) {
  const res = await ctx.as(creds).post('/v1/test_helpers/prices', { symbol, price });
  if (res.status !== 200) {
    throw new Error(`price failed: ${res.status} ${JSON.stringify(res.body)}`);
  }
  const asset = res.body.data[0];
  return { bid: String(asset.bidPrice), ask: String(asset.askPrice), last: String(asset.price) };
}

/** A funded, ACTIVE investor (cash in USD), as the trading specs start. */
export async function trader(
  ctx: TestContext,
  creds: TestCredentials,
  cash = '100000.00',
  overrides: Record<string, unknown> = {},
) {
  const investor =
    cash === '0'
      ? await activeInvestor(ctx, creds, overrides)
      : (await fundedAccount(ctx, creds, cash, overrides)).investor;
  const client = ctx.as(creds);
  return {
    investor,
    place: (body: Record<string, unknown>, key?: string) =>
      client.post(`/v1/investors/${investor.id}/orders`, body, key),
    order: async (id: string) => (await client.get(`/v1/investors/${investor.id}/orders/${id}`)).body,
    executions: async (id: string) =>
      (await client.get(`/v1/investors/${investor.id}/orders/${id}/executions`)).body.data as Array<
        Record<string, string>
      >,
    cancel: (id: string) => client.post(`/v1/investors/${investor.id}/orders/${id}/cancel`),
    accountOrders: (query = '') => client.get(`/v1/trading/accounts/${investor.account_id}/orders${query}`),
    positions: async () => (await client.get(`/v1/trading/accounts/${investor.account_id}/positions`)).body,
    balance: async () =>
      (await client.get(`/v1/wallet/accounts/${investor.account_id}/balances`)).body[0] as Record<
        string,
        string
      >,
  };
}

const RANK = ['order.accepted', 'order.partially_filled', 'order.filled', 'order.canceled', 'order.rejected'];

/** A partner's webhook receiver for order events; `events(orderId)` lists what arrived about one order. */
export async function orderWebhook(ctx: TestContext, creds: TestCredentials) {
  const receiver = new WebhookReceiver();
  const url = await receiver.start({ ctx, creds });
  const created = await ctx.as(creds).post('/v1/webhooks', {
    name: 'orders',
    url,
    eventTypeNames: ['order.*'],
  });
  if (created.status !== 201) {
    throw new Error(`webhook failed: ${created.status} ${JSON.stringify(created.body)}`);
  }
  const signer = new Webhook(created.body.secret as string);
  const about = (orderId: string) => receiver.deliveries.filter((d) => d.json.data.id === orderId);
  return {
    /** Waits until these events about the order have arrived (signatures checked); returns them in order. */
    async waitFor(orderId: string, names: string[], timeoutMs = 15_000): Promise<Delivery['json'][]> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        await receiver.refresh();
        const got = about(orderId);
        if (names.every((n) => got.some((d) => d.json.event === n))) {
          got.forEach((d) => expect(signer.verify(d.body, d.headers as Record<string, string>)).toBeTruthy());
          // Events of one transaction can share a millisecond: ties follow the lifecycle's order.
          return got
            .map((d) => d.json)
            .sort(
              (a, b) =>
                a.timestamp.localeCompare(b.timestamp) || RANK.indexOf(a.event) - RANK.indexOf(b.event),
            );
        }
        if (Date.now() > deadline) {
          throw new Error(
            `Order ${orderId}: wanted ${names.join(', ')}; got ${got.map((d) => d.json.event).join(', ')}`,
          );
        }
        await new Promise((r) => setTimeout(r, isRemote ? 200 : 50));
      }
    },
    names: (orderId: string) => about(orderId).map((d) => d.json.event),
    stop: () => receiver.stop(),
  };
}
