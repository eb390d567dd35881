import { useTenant, useTestContext } from '../support/app';
import { expectSvcError } from '../support/errors';
import { fundingBody, linkBankAccount } from '../wallet/support/wallet';
import { freezeClock, MONDAY_OPEN, setPrice, trader } from './support/trading';

/**
 * CLOSED is final and moves no money: an account is closed only once it holds nothing, so no cash,
 * position, order or transfer is stranded where no withdrawal or sale can reach it. A SUSPENDED
 * account trades no more: suspending it cancels its open orders.
 */
describe('Suspending and closing an account that holds money', () => {
  const ctx = useTestContext();
  const tenant = useTenant(ctx);
  beforeAll(() => freezeClock(ctx, tenant.test, MONDAY_OPEN));

  it('is refused 409 naming what remains until cash, orders, positions and transfers are gone', async () => {
    const t = await trader(ctx, tenant.test, '1000.00');
    const account = t.investor.account_id;
    const bank = await linkBankAccount(ctx, tenant.test, t.investor.id);
    await setPrice(ctx, tenant.test, 'AAPL', '10.00');
    const bought = await t.place({
      symbol: 'AAPL',
      side: 'buy',
      type: 'market',
      time_in_force: 'day',
      quantity: '10',
    });
    expect(bought.body.status).toBe('filled');
    const resting = await t.place({
      symbol: 'AAPL',
      side: 'buy',
      type: 'limit',
      time_in_force: 'gtc',
      quantity: '1',
      limit_price: '5',
    });
    const deposit = await client().post(
      `/v1/wallet/accounts/${account}/funding`,
      fundingBody(bank.id, '50.00'),
    );

    const refused = await close(account);
    expectSvcError(refused, 'SVC-409-001');
    expect(refused.body.error.message).toContain('899.90 USD cash');
    expect(refused.body.error.message).toContain('50.00 USD of pending deposits');
    expect(refused.body.error.message).toContain('1 open order');
    expect(refused.body.error.message).toContain('10 AAPL');
    expect(refused.body.error.message).toContain('1 transfer in flight');
    expect((await client().get(`/v1/accounts/${account}`)).body.status).toBe('ACTIVE');

    // Empty it: cancel the order, fail the deposit, sell the shares, withdraw and settle the cash.
    expect((await t.cancel(resting.body.id)).status).toBe(200);
    const failed = await client().post(
      `/v1/test_helpers/wallet/transactions/${deposit.body.transaction_id}/fail`,
    );
    expect(failed.status).toBe(200);
    const sold = await t.place({
      symbol: 'AAPL',
      side: 'sell',
      type: 'market',
      time_in_force: 'day',
      quantity: '10',
    });
    expect(sold.body.status).toBe('filled');
    const { cash } = await t.balance();
    const withdrawal = await client().post(
      `/v1/wallet/accounts/${account}/withdrawals`,
      fundingBody(bank.id, cash),
    );
    expect(withdrawal.status).toBe(201);
    expectSvcError(await close(account), 'SVC-409-001'); // the withdrawal is still in flight
    const settled = await client().post(
      `/v1/test_helpers/wallet/transactions/${withdrawal.body.transaction_id}/settle`,
    );
    expect(settled.status).toBe(200);

    const closed = await close(account);
    expect(closed.status).toBe(200);
    expect(closed.body.status).toBe('CLOSED');
  });

  it('an account that never held money closes at once', async () => {
    const t = await trader(ctx, tenant.test, '0');
    const closed = await close(t.investor.account_id);
    expect(closed.status).toBe(200);
    expect(closed.body.status).toBe('CLOSED');
  });

  it('suspending cancels open orders, releasing their holds, and a later price move fills nothing', async () => {
    const t = await trader(ctx, tenant.test, '1000.00');
    const account = t.investor.account_id;
    await setPrice(ctx, tenant.test, 'MSFT', '10.00');
    await t.place({ symbol: 'MSFT', side: 'buy', type: 'market', time_in_force: 'day', quantity: '5' });
    const buy = await t.place({
      symbol: 'MSFT',
      side: 'buy',
      type: 'limit',
      time_in_force: 'gtc',
      quantity: '10',
      limit_price: '9',
    });
    const sell = await t.place({
      symbol: 'MSFT',
      side: 'sell',
      type: 'limit',
      time_in_force: 'gtc',
      quantity: '5',
      limit_price: '11',
    });
    expect([buy.body.status, sell.body.status]).toEqual(['accepted', 'accepted']);
    expect((await t.balance()).order_holds).toBe('90.00');

    const suspended = await client().post(`/v1/accounts/${account}/actions/suspend`);
    expect(suspended.body.status).toBe('SUSPENDED');
    for (const id of [buy.body.id, sell.body.id]) {
      expect(await t.order(id)).toMatchObject({ status: 'canceled', cancel_reason: 'account suspended' });
    }
    const balance = await t.balance();
    expect(balance).toMatchObject({ order_holds: '0.00', available: balance.cash });

    await setPrice(ctx, tenant.test, 'MSFT', '8.00');
    await setPrice(ctx, tenant.test, 'MSFT', '12.00');
    expect(await t.positions()).toEqual([expect.objectContaining({ symbol: 'MSFT', quantity: '5' })]);
    expect(await t.balance()).toEqual(balance);

    // Reactivated, it trades again; the canceled orders stay canceled.
    await client().post(`/v1/accounts/${account}/actions/reactivate`);
    expect((await t.order(buy.body.id)).status).toBe('canceled');
    const again = await t.place({
      symbol: 'MSFT',
      side: 'sell',
      type: 'market',
      time_in_force: 'day',
      quantity: '5',
    });
    expect(again.body.status).toBe('filled');
  });

  const client = () => ctx.as(tenant.test);
  const close = (accountId: string) => client().post(`/v1/accounts/${accountId}/actions/close`);
});
