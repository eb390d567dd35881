import { closeCliContext } from 'src/cli/cli-context';
import { isRemote, useTenant, useTestContext } from '../support/app';
import { runCli } from '../support/cli';
import { sandboxTerms } from '../support/sandbox-terms';
import { expectSvcError } from '../support/errors';
import { activeInvestor, balances, fundedAccount, fundingBody, linkBankAccount } from './support/wallet';

describe('Withdrawals under concurrency, and fees', () => {
  const ctx = useTestContext();
  const tenant = useTenant(ctx);
  afterAll(() => closeCliContext());

  const client = () => ctx.as(tenant.test);

  it('50 concurrent withdrawals never overdraw: exactly what fits is held, the rest is 422 naming amount', async () => {
    const { investor, bank } = await fundedAccount(ctx, tenant.test, '1000.00');
    const wallet = `/v1/wallet/accounts/${investor.account_id}`;
    const results = await Promise.all(
      Array.from({ length: 50 }, () => client().post(`${wallet}/withdrawals`, fundingBody(bank.id, '30.00'))),
    );
    const accepted = results.filter((r) => r.status === 201);
    const refused = results.filter((r) => r.status !== 201);
    expect(accepted).toHaveLength(33);
    refused.forEach((r) => expectSvcError(r, 'SVC-422-002', { param: 'amount' }));
    expect(await balances(ctx, tenant.test, investor.account_id)).toEqual([
      {
        currency: 'USD',
        cash: '1000.00',
        available: '10.00',
        pending_deposits: '0.00',
        withdrawal_holds: '990.00',
        order_holds: '0.00',
      },
    ]);
    const listed = await client().get(`${wallet}/transactions?type=withdrawal&limit=100`);
    expect(listed.body).toHaveLength(33);

    // Settling them all concurrently debits exactly what was held.
    const settled = await Promise.all(
      accepted.map((r) =>
        client().post(`/v1/test_helpers/wallet/transactions/${r.body.transaction_id}/settle`),
      ),
    );
    expect(settled.every((r) => r.status === 200)).toBe(true);
    expect(await balances(ctx, tenant.test, investor.account_id)).toEqual([
      {
        currency: 'USD',
        cash: '10.00',
        available: '10.00',
        pending_deposits: '0.00',
        withdrawal_holds: '0.00',
        order_holds: '0.00',
      },
    ]);
  });

  it('60 concurrent deposits on a tenant’s first transfers all go through', async () => {
    const fresh = await ctx.createTenant();
    const investor = await activeInvestor(ctx, fresh.test);
    const bank = await linkBankAccount(ctx, fresh.test, investor.id);
    const results = await Promise.all(
      Array.from({ length: 60 }, () =>
        ctx
          .as(fresh.test)
          .post(`/v1/wallet/accounts/${investor.account_id}/funding`, fundingBody(bank.id, '1.00')),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(60).fill(201));
    expect(await balances(ctx, fresh.test, investor.account_id)).toMatchObject([
      { pending_deposits: '60.00' },
    ]);
  });

  it('concurrent withdrawals and cancels of one account keep available cash exact', async () => {
    const { investor, bank } = await fundedAccount(ctx, tenant.test, '100.00');
    const wallet = `/v1/wallet/accounts/${investor.account_id}`;
    const first = await Promise.all(
      Array.from({ length: 10 }, () => client().post(`${wallet}/withdrawals`, fundingBody(bank.id, '10.00'))),
    );
    expect(first.every((r) => r.status === 201)).toBe(true);
    const [cancels, more] = await Promise.all([
      Promise.all(
        first.slice(0, 5).map((r) => client().post(`${wallet}/transactions/${r.body.transaction_id}/cancel`)),
      ),
      Promise.all(
        Array.from({ length: 10 }, () =>
          client().post(`${wallet}/withdrawals`, fundingBody(bank.id, '10.00')),
        ),
      ),
    ]);
    expect(cancels.every((r) => r.status === 200)).toBe(true);
    const held = 5 + more.filter((r) => r.status === 201).length;
    expect(held).toBeLessThanOrEqual(10);
    expect(await balances(ctx, tenant.test, investor.account_id)).toMatchObject([
      { cash: '100.00', available: (100 - held * 10).toFixed(2), withdrawal_holds: (held * 10).toFixed(2) },
    ]);
  });

  it('a tenant’s fees (set by support with the CLI, or the sandbox admin API) show on the record and go to fee revenue', async () => {
    const partner = await ctx.createTenant();
    /** Support's command: the CLI in process; against a sandbox, its admin API (same answer). */
    const settings = (change: Record<string, string | number> = {}) =>
      isRemote
        ? sandboxTerms(ctx, partner.tenantId, 'transfer-settings', change)
        : runCli(
            'transfers:settings',
            partner.tenantId,
            ...Object.entries(change).flatMap(([k, v]) => [`--${k.replace(/_/g, '-')}`, String(v)]),
          );
    expect(await settings()).toEqual({
      tenant_id: partner.tenantId,
      deposit_fee: { flat: '0', bps: 0 },
      withdrawal_fee: { flat: '0', bps: 0 },
      min_amount: '1',
      max_amount: '1000000',
    });
    expect(
      await settings({ deposit_fee_bps: 25, withdrawal_fee_flat: '1.50', max_amount: '5000' }),
    ).toMatchObject({
      deposit_fee: { flat: '0', bps: 25 },
      withdrawal_fee: { flat: '1.5', bps: 0 },
      max_amount: '5000',
    });
    await expect(settings({ deposit_fee_bps: 20000 })).rejects.toThrow();

    const { investor, bank } = await fundedAccount(ctx, partner.test, '1000.00');
    const wallet = `/v1/wallet/accounts/${investor.account_id}`;
    const client = ctx.as(partner.test);
    const deposits = await client.get(`${wallet}/transactions?type=deposit`);
    expect(deposits.body[0]).toMatchObject({
      amount: '1000.00',
      fee: '2.50',
      net_amount: '997.50',
      status: 'settled',
    });
    const withdrawal = await client.post(`${wallet}/withdrawals`, fundingBody(bank.id, '100.00'));
    expect(withdrawal.body).toMatchObject({ amount: '100.00', fee: '1.50', net_amount: '98.50' });
    await client.post(`/v1/test_helpers/wallet/transactions/${withdrawal.body.transaction_id}/settle`);
    expect(await balances(ctx, partner.test, investor.account_id)).toMatchObject([
      { cash: '897.50', available: '897.50' },
    ]);
    expectSvcError(await client.post(`${wallet}/withdrawals`, fundingBody(bank.id, '1.50')), 'SVC-400-001', {
      param: 'amount',
      message: 'amount must be greater than the withdrawal fee of 1.50 USD.',
    });
    expectSvcError(await client.post(`${wallet}/funding`, fundingBody(bank.id, '5000.01')), 'SVC-400-001', {
      param: 'amount',
      message: 'amount must be between 1 and 5000 USD per transfer.',
    });
    if (isRemote) {
      // Fee revenue is a ledger account of the deployment: its tables are not the suite's to read.
      return;
    }
    const [revenue] = await ctx.dataSource.query(
      `SELECT sum(e.amount) AS total FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.ledger_account_id
        WHERE a.tenant_id = $1 AND a.kind = 'fees_revenue'`,
      [partner.tenantId],
    );
    expect(Number(revenue.total)).toBe(4);
  });
});
