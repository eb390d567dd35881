import { useTenant, useTestContext } from '../support/app';
import { expectSvcError } from '../support/errors';
import { balances, fundingBody, linkBankAccount } from '../wallet/support/wallet';
import { freezeClock, MONDAY_OPEN, setPrice, trader } from './support/trading';

/**
 * Withdrawals (wallet) and buy orders (trading) hold the same cash through the same ledger
 * account, each in its own module's transaction. Fired at once they must still never hold more
 * than the cash, and a pending withdrawal raced by its cancel and its settlement ends exactly one
 * way. Sells racing for the units of one position never sell more than it holds.
 */
describe('One balance, two modules: withdrawals and orders competing for the same cash', () => {
  const ctx = useTestContext();
  const tenant = useTenant(ctx);
  beforeAll(() => freezeClock(ctx, tenant.test, MONDAY_OPEN));

  it('50 concurrent withdrawals and resting buys of $50 each on $1,000: exactly 20 hold, the rest are 422 naming their field', async () => {
    const t = await trader(ctx, tenant.test, '1000.00');
    const bank = await linkBankAccount(ctx, tenant.test, t.investor.id);
    await setPrice(ctx, tenant.test, 'AAPL', '10.00');
    const wallet = `/v1/wallet/accounts/${t.investor.account_id}`;
    // A limit buy of 10 at 5 rests under the market and holds its cost, $50.
    const buy = {
      symbol: 'AAPL',
      side: 'buy',
      type: 'limit',
      time_in_force: 'gtc',
      quantity: '10',
      limit_price: '5',
    };
    const requests = Array.from({ length: 50 }, (_, i) =>
      i % 2 === 0
        ? client()
            .post(`${wallet}/withdrawals`, fundingBody(bank.id, '50.00'))
            .then((res) => ({ kind: 'withdrawal' as const, res }))
        : t.place(buy).then((res) => ({ kind: 'order' as const, res })),
    );
    const results = await Promise.all(requests);

    const held = results.filter((r) => r.res.status === 201);
    expect(held).toHaveLength(20);
    for (const { kind, res } of results.filter((r) => r.res.status !== 201)) {
      expectSvcError(res, 'SVC-422-002', { param: kind === 'withdrawal' ? 'amount' : 'quantity' });
    }
    held.filter((r) => r.kind === 'order').forEach((r) => expect(r.res.body.status).toBe('accepted'));
    const withdrawals = held.filter((r) => r.kind === 'withdrawal').length;
    const orders = held.length - withdrawals;
    expect(await balances(ctx, tenant.test, t.investor.account_id)).toEqual([
      {
        currency: 'USD',
        cash: '1000.00',
        available: '0.00',
        pending_deposits: '0.00',
        withdrawal_holds: (withdrawals * 50).toFixed(2),
        order_holds: (orders * 50).toFixed(2),
      },
    ]);
  });

  it('a pending withdrawal raced by its cancel and its settlement ends one way only, and cash follows that way', async () => {
    const t = await trader(ctx, tenant.test, '500.00');
    const bank = await linkBankAccount(ctx, tenant.test, t.investor.id);
    const wallet = `/v1/wallet/accounts/${t.investor.account_id}`;
    const pending = await Promise.all(
      Array.from({ length: 10 }, () => client().post(`${wallet}/withdrawals`, fundingBody(bank.id, '20.00'))),
    );
    expect(pending.map((r) => r.status)).toEqual(Array(10).fill(201));
    const ids = pending.map((r) => r.body.transaction_id as string);

    const raced = await Promise.all(
      ids.map((id) =>
        Promise.all([
          client().post(`${wallet}/transactions/${id}/cancel`),
          client().post(`/v1/test_helpers/wallet/transactions/${id}/settle`),
        ]),
      ),
    );
    let settled = 0;
    for (const [i, [cancel, settle]] of raced.entries()) {
      const winners = [cancel, settle].filter((r) => r.status === 200);
      expect(winners).toHaveLength(1);
      const loser = cancel.status === 200 ? settle : cancel;
      expectSvcError(loser, 'SVC-409-001');
      const record = (await client().get(`${wallet}/transactions?type=withdrawal&limit=100`)).body.find(
        (txn: { transaction_id: string }) => txn.transaction_id === ids[i],
      );
      expect(record.status).toBe(cancel.status === 200 ? 'canceled' : 'settled');
      settled += settle.status === 200 ? 1 : 0;
    }
    const cash = (500 - settled * 20).toFixed(2);
    expect(await balances(ctx, tenant.test, t.investor.account_id)).toEqual([
      {
        currency: 'USD',
        cash,
        available: cash,
        pending_deposits: '0.00',
        withdrawal_holds: '0.00',
        order_holds: '0.00',
      },
    ]);
  });

  it('30 concurrent resting sells of one unit on a 10-unit position: exactly 10 reserve, the rest are 422 SVC-422-003', async () => {
    const t = await trader(ctx, tenant.test, '1000.00');
    await setPrice(ctx, tenant.test, 'MSFT', '10.00');
    const bought = await t.place({
      symbol: 'MSFT',
      side: 'buy',
      type: 'market',
      time_in_force: 'day',
      quantity: '10',
    });
    expect(bought.body.status).toBe('filled');
    const sell = {
      symbol: 'MSFT',
      side: 'sell',
      type: 'limit',
      time_in_force: 'gtc',
      quantity: '1',
      limit_price: '50',
    };
    const results = await Promise.all(Array.from({ length: 30 }, () => t.place(sell)));
    const accepted = results.filter((r) => r.status === 201);
    expect(accepted).toHaveLength(10);
    accepted.forEach((r) => expect(r.body.status).toBe('accepted'));
    results
      .filter((r) => r.status !== 201)
      .forEach((r) => expectSvcError(r, 'SVC-422-003', { param: 'quantity' }));
  });

  it('30 concurrent market sells of one unit on a 10-unit position: exactly 10 fill and the position closes', async () => {
    const t = await trader(ctx, tenant.test, '1000.00');
    const quote = await setPrice(ctx, tenant.test, 'NVDA', '10.00');
    const bought = await t.place({
      symbol: 'NVDA',
      side: 'buy',
      type: 'market',
      time_in_force: 'day',
      quantity: '10',
    });
    expect(bought.body.status).toBe('filled');
    const cashAfterBuy = (await t.balance()).cash;
    const sell = { symbol: 'NVDA', side: 'sell', type: 'market', time_in_force: 'day', quantity: '1' };
    const results = await Promise.all(Array.from({ length: 30 }, () => t.place(sell)));
    const filled = results.filter((r) => r.status === 201);
    expect(filled).toHaveLength(10);
    filled.forEach((r) => expect(r.body.status).toBe('filled'));
    results
      .filter((r) => r.status !== 201)
      .forEach((r) => expectSvcError(r, 'SVC-422-003', { param: 'quantity' }));
    expect((await t.positions()).filter((p: { symbol: string }) => p.symbol === 'NVDA')).toEqual([]);
    const proceeds = (Number(quote.bid) * 10).toFixed(2);
    expect(await t.balance()).toMatchObject({
      cash: (Number(cashAfterBuy) + Number(proceeds)).toFixed(2),
      order_holds: '0.00',
    });
  });

  const client = () => ctx.as(tenant.test);
});
