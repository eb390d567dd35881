import Decimal from 'decimal.js';
import { LedgerAudit } from 'src/modules/ledger/ledger-audit.service';
import { allActivities, netAmountsAndCash } from '../activities/support';
import { itLocal, useTenant, useTestContext } from '../support/app';
import { expectSvcError } from '../support/errors';
import { adminToken } from '../support/remote';
import { investorKey } from '../investors/fixtures';
import { freezeClock, MONDAY_OPEN, setPrice, trader } from '../trading/support/trading';
import { activeInvestor } from '../wallet/support/wallet';
import { balancesByCurrency, eventWebhook, firmAccount, journal } from '../fx/support/fx';
import { NO_LEDGER_DISCREPANCIES } from '../support/ledger-audit';

/**
 * The firm account and journals through the API: instant funding (firm → investor JNLC, then an
 * order at once), a share reward (the firm buys, then JNLS at the firm's cost basis), limits and
 * refusals with their codes and params, the batch, the list, events and races on one balance.
 */
describe('Firm account and journals', () => {
  const ctx = useTestContext();
  const tenant = useTenant(ctx);
  let firm: string;
  beforeAll(() => openFundedFirmAccount());

  it('opens one firm account per mode, tenant-level keys only', async () => {
    const test = await client().get('/v1/firm-account');
    expect(test.body).toEqual({
      object: 'firm_account',
      account_id: firm,
      livemode: false,
      balances: [
        {
          currency: 'USD',
          cash: '200000.00',
          available: '200000.00',
          pending_deposits: '0.00',
          withdrawal_holds: '0.00',
          order_holds: '0.00',
        },
      ],
    });
    const live = await ctx.as(tenant.live).get('/v1/firm-account');
    expect(live.body).toMatchObject({ object: 'firm_account', livemode: true });
    expect(live.body.account_id).not.toBe(firm);
    expectSvcError(await ctx.as(tenant.live).get(`/v1/wallet/accounts/${firm}/balances`), 'SVC-404-001');
    const investor = await activeInvestor(ctx, tenant.test);
    const key = await investorKey(ctx, tenant.test, investor.id);
    expectSvcError(await ctx.as(key).get('/v1/firm-account'), 'SVC-403-001');
    expectSvcError(await ctx.as(key).post('/v1/firm-account/orders', {}), 'SVC-403-001');
    expectSvcError(await ctx.as(key).get('/v1/firm-account/funding-sources'), 'SVC-403-001');
    expectSvcError(await ctx.as(key).get(`/v1/wallet/accounts/${firm}/balances`), 'SVC-404-001');
    expectSvcError(await ctx.as(key).get(`/v1/trading/accounts/${firm}/positions`), 'SVC-404-001');
    expectSvcError(await ctx.as(key).post('/v1/journals', {}), 'SVC-403-001');
    const accounts = await client().get('/v1/accounts');
    expect(accounts.body.map((a: { id: string }) => a.id)).not.toContain(firm);
  });

  it('instant funding: a JNLC from the firm is cash the investor trades at once', async () => {
    const hook = await eventWebhook(ctx, tenant.test, ['journal.*']);
    const investor = await trader(ctx, tenant.test, '0');
    const quote = await setPrice(ctx, tenant.test, 'AAPL', '200.00');
    const res = await journal(ctx, tenant.test, {
      entry_type: 'JNLC',
      from_account_id: firm,
      to_account_id: investor.investor.account_id,
      amount: '1000.00',
      currency: 'USD',
      description: 'Instant deposit',
      metadata: { transfer: 'pending-ach-1' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^jnl_/),
      object: 'journal',
      created: Date.parse(MONDAY_OPEN) / 1000,
      livemode: false,
      metadata: { transfer: 'pending-ach-1' },
      entry_type: 'JNLC',
      from_account_id: firm,
      to_account_id: investor.investor.account_id,
      amount: '1000.00',
      currency: 'USD',
      symbol: null,
      quantity: null,
      description: 'Instant deposit',
      status: 'executed',
      reject_reason: null,
    });
    const order = await investor.place({
      symbol: 'AAPL',
      side: 'buy',
      type: 'market',
      time_in_force: 'day',
      quantity: '4',
    });
    expect(order.body.status).toBe('filled');
    const cost = new Decimal(quote.ask).times(4);
    expect((await investor.balance()).cash).toBe(new Decimal(1000).minus(cost).toFixed(2));
    const event = await hook.waitFor('journal.executed', (d) => d.id === res.body.id);
    expect(event.data).toEqual(res.body);
    expect((await client().get(`/v1/journals/${res.body.id}`)).body).toEqual(res.body);
    // One JNLC on each side: the firm's cash out, the investor's in, both naming the journal.
    const jnlc = async (accountId: string) =>
      (await allActivities(ctx, tenant.test, accountId, '&activity_types=JNLC'))
        .filter((a) => a.journal_id === res.body.id)
        .map((a) => [
          a.account_id,
          a.status,
          a.currency,
          new Decimal(a.net_amount).toFixed(2),
          a.qty,
          a.date,
        ]);
    expect(await jnlc(firm)).toEqual([[firm, 'executed', 'USD', '-1000.00', null, '2049-03-01']]);
    expect(await jnlc(investor.investor.account_id)).toEqual([
      [investor.investor.account_id, 'executed', 'USD', '1000.00', null, '2049-03-01'],
    ]);
    // The investor's journal and fill sum to its settled cash.
    const sums = await netAmountsAndCash(ctx, tenant.test, investor.investor.account_id);
    expect(sums).toEqual({
      activities: { USD: sums.cash.USD },
      cash: { USD: new Decimal(1000).minus(cost).toFixed(2) },
    });
    await hook.stop();
  });

  it('share reward: the firm buys, then a JNLS gives the investor units at the firm\u2019s cost basis', async () => {
    const quote = await setPrice(ctx, tenant.test, 'MSFT', '400.00');
    const bought = await client().post('/v1/firm-account/orders', {
      symbol: 'MSFT',
      side: 'buy',
      type: 'market',
      time_in_force: 'day',
      quantity: '3',
    });
    expect(bought.status).toBe(201);
    expect(bought.body).toMatchObject({ investor_id: null, account_id: firm, status: 'filled' });
    const investor = await activeInvestor(ctx, tenant.test);
    const res = await journal(ctx, tenant.test, {
      entry_type: 'JNLS',
      from_account_id: firm,
      to_account_id: investor.account_id,
      symbol: 'MSFT',
      quantity: '1',
    });
    expect(res.body).toMatchObject({ status: 'executed', symbol: 'MSFT', quantity: '1', amount: null });
    const positions = await client().get(`/v1/trading/accounts/${investor.account_id}/positions`);
    const perShare = new Decimal(quote.ask);
    expect(positions.body).toHaveLength(1);
    expect(positions.body[0]).toMatchObject({ symbol: 'MSFT', quantity: '1' });
    expect(new Decimal(positions.body[0].total_cost_basis).toFixed(2)).toBe(perShare.toFixed(2));
    expect(new Decimal(positions.body[0].average_cost_basis).toFixed(2)).toBe(perShare.toFixed(2));
    const firmPositions = await client().get(`/v1/trading/accounts/${firm}/positions`);
    const msft = firmPositions.body.find((p: { symbol: string }) => p.symbol === 'MSFT');
    expect(msft.quantity).toBe('2');
    expect(new Decimal(msft.total_cost_basis).toFixed(2)).toBe(perShare.times(2).toFixed(2));
    expectSvcError(
      await journal(ctx, tenant.test, {
        entry_type: 'JNLS',
        from_account_id: investor.account_id,
        to_account_id: firm,
        symbol: 'MSFT',
        quantity: '1.5',
      }),
      'SVC-422-003',
      { param: 'quantity' },
    );
    // One JNLS on each side at the firm's cost per share, no cash; the firm's own fill is in its feed.
    const jnls = async (accountId: string) =>
      (await allActivities(ctx, tenant.test, accountId, '&activity_types=JNLS'))
        .filter((a) => a.journal_id === res.body.id)
        .map((a) => [
          a.symbol,
          a.qty,
          new Decimal(a.price!).toFixed(2),
          new Decimal(a.net_amount).toFixed(2),
          a.currency,
        ]);
    expect(await jnls(firm)).toEqual([['MSFT', '-1', perShare.toFixed(2), '0.00', 'USD']]);
    expect(await jnls(investor.account_id)).toEqual([['MSFT', '1', perShare.toFixed(2), '0.00', 'USD']]);
    const firmFills = (await allActivities(ctx, tenant.test, firm, '&activity_types=FILL')).filter(
      (a) => a.order_id === bought.body.id,
    );
    expect(firmFills.map((a) => [a.symbol, a.side, a.qty])).toEqual([['MSFT', 'buy', '3']]);
    // The firm account's deposit, journals and fill sum to its settled cash.
    const sums = await netAmountsAndCash(ctx, tenant.test, firm);
    expect(sums.activities).toEqual(sums.cash);
  });

  it('refuses bad journals with their code and param', async () => {
    const a = await activeInvestor(ctx, tenant.test);
    const other = await ctx.createTenant();
    const stranger = await activeInvestor(ctx, other.test);
    const cash = (to: string, amount: string, from = firm) =>
      journal(ctx, tenant.test, {
        entry_type: 'JNLC',
        from_account_id: from,
        to_account_id: to,
        amount,
        currency: 'USD',
      });
    expectSvcError(await cash(a.account_id, '10000.01'), 'SVC-422-008', { param: 'amount' });
    expectSvcError(await cash(firm, '5.00', a.account_id), 'SVC-422-002', { param: 'amount' });
    expectSvcError(await cash(stranger.account_id, '5.00'), 'SVC-404-001');
    expectSvcError(await cash(a.account_id, '5.001'), 'SVC-400-001', { param: 'amount' });
    expectSvcError(await cash(firm, '5.00'), 'SVC-400-001', { param: 'to_account_id' });
    expectSvcError(
      await journal(ctx, tenant.test, {
        entry_type: 'JNLC',
        from_account_id: firm,
        to_account_id: a.account_id,
        amount: '5.00',
      }),
      'SVC-400-002',
      { param: 'currency' },
    );
    expectSvcError(
      await journal(ctx, tenant.test, {
        entry_type: 'JNLS',
        from_account_id: firm,
        to_account_id: a.account_id,
        symbol: 'AAPL',
        quantity: '1',
        amount: '1.00',
      }),
      'SVC-400-001',
      { param: 'amount' },
    );
    // The daily limit counts what one account received today; the firm account receives without one.
    for (let i = 0; i < 5; i++) {
      expect((await cash(a.account_id, '10000.00')).status).toBe(201);
    }
    expectSvcError(await cash(a.account_id, '0.01'), 'SVC-422-008', { param: 'amount' });
    expect((await cash(firm, '10000.00', a.account_id)).status).toBe(201);
    expect((await balancesByCurrency(ctx, tenant.test, a.account_id)).USD.cash).toBe('40000.00');
  });

  it('answers a batch of 1,000 entries, each executed or rejected on its own', async () => {
    const investors = await Promise.all(Array.from({ length: 4 }, () => activeInvestor(ctx, tenant.test)));
    const entries = Array.from({ length: 1000 }, (_, i) => ({
      to_account_id: i === 7 ? '00000000-0000-4000-8000-000000000000' : investors[i % 4].account_id,
      amount: i === 9 ? '10000.01' : '1.25',
    }));
    const res = await client().post('/v1/journals/batch', {
      from_account_id: firm,
      currency: 'USD',
      entries,
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toHaveLength(1000);
    const rejected = res.body.data.filter((j: { status: string }) => j.status === 'rejected');
    expect(rejected.map((j: { reject_reason: string }) => j.reject_reason.slice(0, 11))).toEqual([
      'SVC-404-001',
      'SVC-422-008',
    ]);
    const perInvestor = new Decimal('1.25').times(250);
    const received = await Promise.all(
      investors.map(async (inv) => (await balancesByCurrency(ctx, tenant.test, inv.account_id)).USD.cash),
    );
    expect(received).toEqual([
      perInvestor.toFixed(2),
      perInvestor.minus('1.25').toFixed(2),
      perInvestor.toFixed(2),
      perInvestor.minus('1.25').toFixed(2),
    ]);
    const listed = await client().get(`/v1/journals?account_id=${investors[0].account_id}&limit=100`);
    expect(listed.body.data).toHaveLength(100);
    expect(listed.body.has_more).toBe(true);
    const next = await client().get(
      `/v1/journals?account_id=${investors[0].account_id}&limit=100&starting_after=${listed.body.data[99].id}`,
    );
    expect(next.body.data[0].id).not.toBe(listed.body.data[99].id);
  });

  it('50 concurrent journals drawing on one balance never overdraw it', async () => {
    const source = await trader(ctx, tenant.test, '1000.00');
    const target = await activeInvestor(ctx, tenant.test);
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        journal(ctx, tenant.test, {
          entry_type: 'JNLC',
          from_account_id: source.investor.account_id,
          to_account_id: target.account_id,
          amount: '30.00',
          currency: 'USD',
        }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(33);
    expect(results.filter((r) => r.status === 422)).toHaveLength(17);
    expect((await balancesByCurrency(ctx, tenant.test, source.investor.account_id)).USD.cash).toBe('10.00');
    expect((await balancesByCurrency(ctx, tenant.test, target.account_id)).USD.cash).toBe('990.00');
  });

  it('applies the tenant\u2019s journal limits set by the sandbox admin API', async () => {
    const other = await ctx.createTenant();
    // Frozen before its accounts open: a later jump from real time to the fixed date would run
    // every daily job of the years in between.
    await freezeClock(ctx, other.test, MONDAY_OPEN);
    const patched = await ctx
      .http()
      .patch(`/v1/sandbox/tenants/${other.tenantId}/journal-settings`)
      .set('Authorization', `Bearer ${adminToken()}`)
      .send({ journal_limit_per_entry: '50', journal_limit_per_day_per_account: '80' });
    expect(patched.body).toEqual({
      tenant_id: other.tenantId,
      journal_limit_per_entry: '50',
      journal_limit_per_day_per_account: '80',
    });
    const otherFirm = await firmAccount(ctx, other.test, '1000.00');
    const investor = await activeInvestor(ctx, other.test);
    const cash = (amount: string) =>
      journal(ctx, other.test, {
        entry_type: 'JNLC',
        from_account_id: otherFirm,
        to_account_id: investor.account_id,
        amount,
        currency: 'USD',
      });
    expectSvcError(await cash('50.01'), 'SVC-422-008', { param: 'amount' });
    expect((await cash('50.00')).status).toBe(201);
    expectSvcError(await cash('30.01'), 'SVC-422-008', { param: 'amount' });
    expect((await cash('30.00')).status).toBe(201);
    // The next day of the clock starts a new count.
    await ctx.as(other.test).post('/v1/test_helpers/clock', {
      frozen_time: new Date(Date.parse(MONDAY_OPEN) + 86_400_000).toISOString(),
    });
    expect((await cash('50.00')).status).toBe(201);
  });

  itLocal('keeps the ledger balanced per currency', async () => {
    expect(await ctx.app!.get(LedgerAudit).check(tenant.tenantId)).toEqual(NO_LEDGER_DISCREPANCIES);
  });

  const client = () => ctx.as(tenant.test);

  /** The clock frozen at Monday's open, and the tenant's firm account with 200,000.00 USD of settled cash. */
  async function openFundedFirmAccount(): Promise<void> {
    await freezeClock(ctx, tenant.test, MONDAY_OPEN);
    firm = await firmAccount(ctx, tenant.test, '200000.00');
  }
});
