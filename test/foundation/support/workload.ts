import type { TestContext, TestCredentials, TestTenant } from '../../support/app';
import { activeInvestor, fundingBody, linkBankAccount } from '../../support/factories';
import { announce } from '../../corporate-actions/support';
import { advanceClock, freezeClock, MONDAY_OPEN, setPrice, trader } from '../../trading/support/trading';
import { Receiver } from '../../webhooks/support/receiver';
import { createEndpoint, eventually } from '../../webhooks/support/webhooks';

/** The symbols the traders spread their orders over, and their opening prices (50, 60, ... 160). */
export const SYMBOLS = [
  'AAPL',
  'MSFT',
  'IBM',
  'NVDA',
  'META',
  'GOOGL',
  'TSLA',
  'KO',
  'JPM',
  'INTC',
  'AMZN',
  'AMD',
];
const OPENING = (i: number) => 50 + 10 * i;
/** The symbol of the cash dividend: traders 0 and 3 buy it at market, 2 and 5 by their resting buys. */
const DIVIDEND_SYMBOL = SYMBOLS[0];
const HOUR = 3600;

export type Trader = Awaited<ReturnType<typeof trader>>;

/** A tenant whose test-mode webhook endpoint takes every event type, its receiver a real HTTP server. */
export interface Party {
  tenant: TestTenant;
  receiver: Receiver;
  endpointId: string;
}

export async function partyWithReceiver(spread: TestContext): Promise<Party> {
  const tenant = await spread.createTenant();
  const receiver = await new Receiver().start();
  const { id } = await createEndpoint(spread, tenant.test, { url: receiver.url, eventTypeNames: ['*'] });
  return { tenant, receiver, endpointId: id };
}

/**
 * Waits until every process answers the tenant's market clock at `at` (a process learns of a move
 * made through another by a notification, milliseconds later).
 */
export async function everyProcessSees(processes: TestContext[], creds: TestCredentials, at: string) {
  await Promise.all(
    processes.map((p) =>
      eventually(
        () => p.as(creds).get('/v1/markets/XNYS/clock'),
        (res) => res.status === 200 && Date.parse(res.body.timestamp as string) === Date.parse(at),
        10_000,
      ),
    ),
  );
}

/** `n` ACTIVE investors, each with a linked bank account: ready to deposit. */
export function depositors(spread: TestContext, creds: TestCredentials, n: number) {
  return Promise.all(
    Array.from({ length: n }, async () => {
      const investor = await activeInvestor(spread, creds);
      return { investor, bank: await linkBankAccount(spread, creds, investor.id) };
    }),
  );
}

/**
 * A deposit of `amount` for each; answers their transaction ids. The tenant's clock follows real
 * time, so the clock's jobs (processing, then settlement) run in the worker processes.
 */
export function deposit(
  spread: TestContext,
  creds: TestCredentials,
  who: Array<{ investor: { account_id: string }; bank: { id: string } }>,
  amount: string,
): Promise<string[]> {
  return Promise.all(
    who.map(async ({ investor, bank }) => {
      const res = await spread
        .as(creds)
        .post(`/v1/wallet/accounts/${investor.account_id}/funding`, fundingBody(bank.id, amount));
      if (res.status !== 201) {
        throw new Error(`deposit failed: ${res.status} ${JSON.stringify(res.body)}`);
      }
      return res.body.transaction_id as string;
    }),
  );
}

const order = (symbol: string, extra: Record<string, unknown>) => ({
  symbol,
  side: 'buy',
  type: 'limit',
  time_in_force: 'gtc',
  quantity: '10',
  ...extra,
});

/** Places an order; anything but 201 throws. */
async function place(t: Trader, body: Record<string, unknown>): Promise<string> {
  const res = await t.place(body);
  if (res.status !== 201) {
    throw new Error(`order failed: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return res.body.id as string;
}

/**
 * Monday 1 March 2049, 10:00 New York, every process seeing it; the symbols at their opening
 * prices; `n` funded traders, trader i buying 10 of four symbols at market (from symbol 4i on),
 * resting good-till-canceled buys at 80 % on the next two and a day buy at 50 % on the one after.
 */
export async function openTrading(
  spread: TestContext,
  processes: TestContext[],
  creds: TestCredentials,
  n: number,
): Promise<Trader[]> {
  await freezeClock(spread, creds, MONDAY_OPEN);
  await everyProcessSees(processes, creds, MONDAY_OPEN);
  await Promise.all(SYMBOLS.map((s, i) => setPrice(spread, creds, s, String(OPENING(i)))));
  const traders = await Promise.all(Array.from({ length: n }, () => trader(spread, creds, '100000.00')));
  await Promise.all(
    traders.map(async (t, i) => {
      const at = (k: number) => (4 * i + k) % SYMBOLS.length;
      for (const k of [0, 1, 2, 3]) {
        await place(t, order(SYMBOLS[at(k)], { type: 'market', time_in_force: 'day' }));
      }
      for (const k of [4, 5]) {
        await place(t, order(SYMBOLS[at(k)], { limit_price: String((OPENING(at(k)) * 4) / 5) }));
      }
      await place(
        t,
        order(SYMBOLS[at(6)], { time_in_force: 'day', limit_price: String(OPENING(at(6)) / 2) }),
      );
    }),
  );
  return traders;
}

/**
 * The rest of the trading week: prices fall to 75 % (the resting 80 % buys fill, by the price
 * helper's evaluation or a worker's sweep, whichever comes first), each trader sells 4 of its first
 * buy, a cash dividend on DIVIDEND_SYMBOL (ex Tuesday, paid Thursday) is announced, the clock passes
 * Monday's close (day orders expire) and then Thursday 10:00 (the dividend is paid), and each
 * trader buys 1 of its first symbol again. Answers the dividend's id.
 */
export async function tradeThroughTheWeek(
  spread: TestContext,
  processes: TestContext[],
  creds: TestCredentials,
  traders: Trader[],
): Promise<string> {
  await Promise.all(SYMBOLS.map((s, i) => setPrice(spread, creds, s, String((OPENING(i) * 3) / 4))));
  const first = (i: number) => SYMBOLS[(4 * i) % SYMBOLS.length];
  await Promise.all(
    traders.map((t, i) =>
      place(t, order(first(i), { side: 'sell', type: 'market', time_in_force: 'day', quantity: '4' })),
    ),
  );
  const dividend = await announce(spread, creds, {
    type: 'cash_dividend',
    symbol: DIVIDEND_SYMBOL,
    cash_rate: '0.25',
    declaration_date: '2049-02-20',
    ex_date: '2049-03-02',
    payable_date: '2049-03-04',
  });
  await advanceClock(spread, creds, 7 * HOUR);
  await everyProcessSees(processes, creds, '2049-03-01T22:00:00Z');
  await advanceClock(spread, creds, 65 * HOUR);
  await everyProcessSees(processes, creds, '2049-03-04T15:00:00Z');
  await Promise.all(
    traders.map((t, i) => place(t, order(first(i), { type: 'market', time_in_force: 'day', quantity: '1' }))),
  );
  return dividend.id as string;
}
