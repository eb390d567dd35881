import Decimal from 'decimal.js';
import type { Principal } from 'src/core/auth/principal';
import { JobRegistry } from 'src/core/scheduler/job-registry';
import { LedgerAudit } from 'src/modules/ledger/ledger-audit.service';
import { InsufficientFundsError } from 'src/modules/ledger/ledger-errors';
import { PROCESS_JOB, SETTLE_JOB } from 'src/modules/transfers/transfer-lifecycle.service';
import { TransferSettingsService } from 'src/modules/transfers/transfer-settings.service';
import { TransfersRepository } from 'src/modules/transfers/transfers.repository';
import { FAILING_ACCOUNT } from '../support/factories';
import { MONEY_MODULES, MoneyStates, testKeyOf } from '../support/money-states';
import { madeBeforeAll } from '../support/made-before-all';
import { createServiceContext, describeLocal } from '../support/service-context';
import { NO_LEDGER_DISCREPANCIES } from '../support/ledger-audit';

/** Deposits and withdrawals from initiation to settlement or failure (services on a real database). */
describeLocal('Transfers: initiation and lifecycle (services on a real database)', () => {
  const ctx = madeBeforeAll('The service context', () => createServiceContext(MONEY_MODULES));
  const states = madeBeforeAll('The money states', () => Promise.resolve(new MoneyStates(ctx.app)));

  it('a deposit initiated is pending: its row, the amount shown as a pending deposit (not cash), its event and its processing job', async () => {
    const { key, accountId, bankId } = await investorWithBank();
    const deposit = await states.initiate(key, 'deposit', accountId, bankId, '250.75');

    expect(await row(key, accountId, deposit.transaction_id)).toMatchObject({
      type: 'deposit',
      status: 'pending',
      amount: '250.75',
      fee: '0.00',
      net_amount: '250.75',
      currency: 'USD',
      funding_source_id: bankId,
      created_at: T0,
      settled_at: null,
    });
    expect(await states.balance(key, accountId)).toEqual({
      cash: '0.00',
      available: '0.00',
      pending_deposits: '250.75',
      withdrawal_holds: '0.00',
    });
    expect(await holds(key, deposit.transaction_id)).toEqual([
      { kind: 'deposit', status: 'pending', amount: '250.75', pending_amount: '250.75' },
    ]);
    const events = await eventsOf(key, deposit.transaction_id);
    expect(events).toEqual([
      expect.objectContaining({ event: 'transfer.deposit.initiated', status: 'pending', amount: '250.75' }),
    ]);
    expect(await jobsOf(key, deposit.transaction_id)).toEqual([
      { kind: PROCESS_JOB, state: 'scheduled', due_at: new Date(T0.getTime() + 3600_000) },
    ]);
    await expectConsistent(key);
  });

  it('a withdrawal above settled cash is refused with InsufficientFundsError naming amount, and writes nothing', async () => {
    const { key, accountId, bankId } = await investorWithBank();
    await states.depositSettled(key, accountId, bankId, '100.00');
    // Pending deposits are not settled cash: they do not count towards a withdrawal either.
    await states.initiate(key, 'deposit', accountId, bankId, '50.00');
    const before = await tenantRowCounts(key);

    const refused = await states.initiate(key, 'withdrawal', accountId, bankId, '100.01').catch((e) => e);
    expect(refused).toBeInstanceOf(InsufficientFundsError);
    expect((refused as InsufficientFundsError).param).toBe('amount');
    expect(await tenantRowCounts(key)).toEqual(before);
    expect(await states.balance(key, accountId)).toEqual({
      cash: '100.00',
      available: '100.00',
      pending_deposits: '50.00',
      withdrawal_holds: '0.00',
    });

    // All of the settled cash may be withdrawn.
    await states.initiate(key, 'withdrawal', accountId, bankId, '100.00');
    expect((await states.balance(key, accountId)).available).toBe('0.00');
    await expectConsistent(key);
  });

  it('a deposit settled by its jobs becomes cash, net of the fee, and is posted once', async () => {
    const { key, accountId, bankId } = await investorWithBank();
    await ctx.app
      .get(TransferSettingsService)
      .update(key.tenantId, { depositFeeFlat: '1.50', depositFeeBps: 25 });
    const deposit = await states.initiate(key, 'deposit', accountId, bankId, '1234.56');
    await states.advanceClock(key, TWO_DAYS);

    // Fee: 1.50 + 25 bps of the amount, half-even to cents; the investor gets the rest.
    const amount = new Decimal('1234.56');
    const fee = new Decimal('1.50')
      .plus(amount.times(25).div(10_000))
      .toDecimalPlaces(2, Decimal.ROUND_HALF_EVEN);
    const net = amount.minus(fee).toFixed(2);
    const settledAt = new Date('2049-03-02T15:30:00Z'); // processing at 15:30, + 1 business day
    expect(await row(key, accountId, deposit.transaction_id)).toMatchObject({
      status: 'settled',
      settled_at: settledAt,
      fee: fee.toFixed(2),
      net_amount: net,
    });
    expect(await states.balance(key, accountId)).toEqual({
      cash: net,
      available: net,
      pending_deposits: '0.00',
      withdrawal_holds: '0.00',
    });
    expect(await journalsOf(key, deposit.transaction_id)).toEqual([
      { journal_key: `${deposit.transaction_id}:settled`, effective_at: settledAt, entries: 3 },
    ]);
    expect((await eventsOf(key, deposit.transaction_id)).map((e) => e.event)).toEqual([
      'transfer.deposit.initiated',
      'transfer.deposit.completed',
    ]);
    await expectConsistent(key);
  });

  it('a deposit from the failing test bank account fails and releases what was pending', async () => {
    const { key, accountId, bankId } = await investorWithBank(FAILING_ACCOUNT);
    const deposit = await states.initiate(key, 'deposit', accountId, bankId, '500.00');
    expect((await states.balance(key, accountId)).pending_deposits).toBe('500.00');
    await states.advanceClock(key, TWO_DAYS);

    expect(await row(key, accountId, deposit.transaction_id)).toMatchObject({
      status: 'failed',
      failure_reason: 'bank_account_closed',
      failed_at: new Date('2049-03-02T15:30:00Z'),
      settled_at: null,
    });
    expect(await states.balance(key, accountId)).toEqual({
      cash: '0.00',
      available: '0.00',
      pending_deposits: '0.00',
      withdrawal_holds: '0.00',
    });
    expect(await holds(key, deposit.transaction_id)).toEqual([
      { kind: 'deposit', status: 'voided', amount: '500.00', pending_amount: '0.00' },
    ]);
    expect(await journalsOf(key, deposit.transaction_id)).toEqual([]);
    expect((await eventsOf(key, deposit.transaction_id)).map((e) => e.event)).toEqual([
      'transfer.deposit.initiated',
      'transfer.deposit.failed',
    ]);
    await expectConsistent(key);
  });

  it('the settle job run again (a retried job) finds the deposit settled and posts nothing more', async () => {
    const { key, accountId, bankId } = await investorWithBank();
    const deposit = await states.initiate(key, 'deposit', accountId, bankId, '300.00');
    await states.advanceClock(key, TWO_DAYS);
    const settled = await row(key, accountId, deposit.transaction_id);
    expect(settled?.status).toBe('settled');

    // Each handler again, as a retry whose first run committed but whose done mark was lost.
    for (const kind of [SETTLE_JOB, PROCESS_JOB, SETTLE_JOB]) {
      await ctx.dataSource.transaction((m) =>
        ctx.app
          .get(JobRegistry)
          .get(kind)
          .run(m, {
            id: `retry-${kind}`,
            tenantId: key.tenantId,
            livemode: false,
            kind,
            dueAt: T0,
            payload: { transactionId: deposit.transaction_id },
            now: new Date('2049-03-03T15:30:00Z'),
            attempts: 1,
          }),
      );
    }
    expect(await row(key, accountId, deposit.transaction_id)).toEqual(settled);
    expect(await journalsOf(key, deposit.transaction_id)).toEqual([
      { journal_key: `${deposit.transaction_id}:settled`, effective_at: settled?.settled_at, entries: 2 },
    ]);
    expect((await states.balance(key, accountId)).cash).toBe('300.00');
    expect((await eventsOf(key, deposit.transaction_id)).map((e) => e.event)).toEqual([
      'transfer.deposit.initiated',
      'transfer.deposit.completed',
    ]);
    await expectConsistent(key);
  });

  it('50 concurrent withdrawals on one settled balance: those it covers are held, the rest refused, never below zero', async () => {
    const { key, accountId, bankId } = await investorWithBank();
    await states.depositSettled(key, accountId, bankId, '100.00');

    const results = await Promise.allSettled(
      Array.from({ length: 50 }, () => states.initiate(key, 'withdrawal', accountId, bankId, '7.00')),
    );
    const covered = new Decimal('100.00').div('7.00').floor().toNumber(); // 14
    const held = new Decimal('7.00').times(covered);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(covered);
    expect(refused).toHaveLength(50 - covered);
    expect(refused.every((r) => r.reason instanceof InsufficientFundsError)).toBe(true);
    expect(await states.balance(key, accountId)).toEqual({
      cash: '100.00',
      available: new Decimal('100.00').minus(held).toFixed(2),
      pending_deposits: '0.00',
      withdrawal_holds: held.toFixed(2),
    });
    expect(await tenantRowCounts(key)).toMatchObject({ withdrawals: covered });
    await expectConsistent(key);

    // Their jobs settle every one of them: the cash left is what no withdrawal covered.
    await states.advanceClock(key, TWO_DAYS);
    const left = new Decimal('100.00').minus(held).toFixed(2);
    expect(await states.balance(key, accountId)).toEqual({
      cash: left,
      available: left,
      pending_deposits: '0.00',
      withdrawal_holds: '0.00',
    });
    await expectConsistent(key);
  });

  /** A new tenant (clock frozen at T0) with an ACTIVE investor and a linked bank account. */
  async function investorWithBank(accountNumber?: string) {
    const key = testKeyOf(await ctx.createTenant());
    await states.freezeClock(key, T0);
    const { investorId, accountId } = await states.activeInvestor(key);
    return { key, accountId, bankId: await states.linkBank(key, investorId, accountNumber) };
  }

  /** The transfer's row, its amounts (numeric(38,8) in the table) at 2 decimals. */
  const row = async (key: Principal, accountId: string, transactionId: string) => {
    const found = await ctx.app.get(TransfersRepository).findByTransactionId(key, accountId, transactionId);
    const cents = (value: string) => new Decimal(value).toFixed(2);
    return (
      found && {
        ...found,
        amount: cents(found.amount),
        fee: cents(found.fee),
        net_amount: cents(found.net_amount),
      }
    );
  };

  const holds = (key: Principal, holdKey: string) =>
    ctx.dataSource.query(
      `SELECT kind, status, amount::numeric(38,2)::text AS amount, pending_amount::numeric(38,2)::text AS pending_amount
         FROM ledger_holds WHERE tenant_id = $1 AND hold_key = $2`,
      [key.tenantId, holdKey],
    );

  const journalsOf = (key: Principal, transactionId: string) =>
    ctx.dataSource.query(
      `SELECT j.journal_key, j.effective_at, (SELECT count(*)::int FROM ledger_entries e WHERE e.journal_id = j.id) AS entries
         FROM ledger_journals j WHERE j.tenant_id = $1 AND j.reference = $2 ORDER BY j.created_at`,
      [key.tenantId, transactionId],
    );

  const eventsOf = async (key: Principal, transactionId: string) =>
    (
      (await ctx.dataSource.query(
        `SELECT event, data FROM events WHERE tenant_id = $1 AND data->>'transaction_id' = $2 ORDER BY created_at, id`,
        [key.tenantId, transactionId],
      )) as Array<{ event: string; data: Record<string, unknown> }>
    ).map((e) => ({ event: e.event, status: e.data.status, amount: e.data.amount }));

  const jobsOf = (key: Principal, transactionId: string) =>
    ctx.dataSource.query(
      `SELECT kind, state, due_at FROM scheduled_jobs WHERE tenant_id = $1 AND dedupe_key = $2 ORDER BY due_at`,
      [key.tenantId, transactionId],
    );

  /** What a transfer request writes, counted over the tenant. */
  const tenantRowCounts = async (key: Principal) =>
    (
      await ctx.dataSource.query(
        `SELECT (SELECT count(*)::int FROM transfers WHERE tenant_id = $1 AND type = 'withdrawal') AS withdrawals,
                (SELECT count(*)::int FROM transfers WHERE tenant_id = $1) AS transfers,
                (SELECT count(*)::int FROM ledger_holds WHERE tenant_id = $1) AS holds,
                (SELECT count(*)::int FROM ledger_journals WHERE tenant_id = $1) AS journals,
                (SELECT count(*)::int FROM events WHERE tenant_id = $1) AS events,
                (SELECT count(*)::int FROM scheduled_jobs WHERE tenant_id = $1) AS jobs`,
        [key.tenantId],
      )
    )[0];

  const expectConsistent = async (key: Principal) =>
    expect(await ctx.app.get(LedgerAudit).check(key.tenantId)).toEqual(NO_LEDGER_DISCREPANCIES);

  /** A Monday: processing starts an hour after creation, settlement one business day later. */
  const T0 = new Date('2049-03-01T14:30:00Z');
  const TWO_DAYS = 2 * 86_400;
});
