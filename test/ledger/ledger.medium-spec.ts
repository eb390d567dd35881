import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { WriteBatch } from 'src/core/database/write-batch';
import { LedgerModule } from 'src/modules/ledger/ledger.module';
import { LedgerAudit } from 'src/modules/ledger/ledger-audit.service';
import { InsufficientFundsError, LedgerRuleError } from 'src/modules/ledger/ledger-errors';
import { LedgerService } from 'src/modules/ledger/ledger.service';
import type { LedgerScope } from 'src/modules/ledger/ledger-account-kinds';
import { madeBeforeAll } from '../support/made-before-all';
import { createServiceContext, describeLocal } from '../support/service-context';
import { bank, cash, expectLedgerConsistent, fees } from './support/ledger-accounts';

describeLocal('Ledger (service on a real database)', () => {
  const ctx = madeBeforeAll('The service context', () => createServiceContext([LedgerModule]));
  const ledger = madeBeforeAll('The ledger', () => Promise.resolve(ctx.app.get(LedgerService)));
  const audit = madeBeforeAll('The ledger audit', () => Promise.resolve(ctx.app.get(LedgerAudit)));
  let scope: LedgerScope;
  beforeAll(async () => (scope = { tenantId: await ctx.createTenant(), livemode: false }));
  const at = new Date('2026-03-02T15:00:00Z');

  it('posts a balanced journal: the investor’s cash is derived from it and the totals equal the entries', async () => {
    const owner = randomUUID();
    expect(await ledger.balances(scope, owner)).toEqual([]);
    const posted = await fund(owner, '125.50');
    expect(posted.created).toBe(true);
    expect(await balance(owner)).toEqual({
      cash: '125.50',
      available: '125.50',
      pending_deposits: '0.00',
      withdrawal_holds: '0.00',
      order_holds: '0.00',
    });
    await expectConsistent();
  });

  it('a journal key posts once: the retry writes nothing and returns the first journal', async () => {
    const owner = randomUUID();
    const first = await fund(owner, '10.00', 'retry-key-1');
    const again = await fund(owner, '10.00', 'retry-key-1');
    expect(again).toEqual({ id: first.id, journalKey: 'retry-key-1', created: false });
    expect((await balance(owner))?.cash).toBe('10.00');
    const [{ n }] = await ctx.dataSource.query(
      `SELECT count(*)::int AS n FROM ledger_journals WHERE tenant_id = $1 AND journal_key = 'retry-key-1'`,
      [scope.tenantId],
    );
    expect(n).toBe(1);
  });

  it('refuses an unbalanced journal before writing anything', async () => {
    const owner = randomUUID();
    await expect(
      tx((m) =>
        ledger.post(m, {
          ...scope,
          journalKey: 'unbalanced-1',
          kind: 'deposit.settled',
          effectiveAt: at,
          entries: [
            { account: bank(), direction: 'debit', amount: '10.00' },
            { account: cash(owner), direction: 'credit', amount: '9.99' },
          ],
        }),
      ),
    ).rejects.toThrow(new LedgerRuleError('debits and credits differ by 0.01 USD'));
    await expect(
      tx((m) =>
        ledger.post(m, {
          ...scope,
          journalKey: 'one-currency-each',
          kind: 'deposit.settled',
          effectiveAt: at,
          entries: [
            { account: bank('USD'), direction: 'debit', amount: '10.00' },
            { account: cash(owner, 'EUR'), direction: 'credit', amount: '10.00' },
          ],
        }),
      ),
    ).rejects.toThrow(LedgerRuleError);
    await expect(
      tx((m) =>
        ledger.post(m, {
          ...scope,
          journalKey: 'too-precise',
          kind: 'deposit.settled',
          effectiveAt: at,
          entries: [
            { account: bank(), direction: 'debit', amount: '0.001' },
            { account: cash(owner), direction: 'credit', amount: '0.001' },
          ],
        }),
      ),
    ).rejects.toThrow('amounts in USD carry at most 2 decimals');
    expect(await balance(owner)).toBeUndefined();
  });

  it('PostgreSQL itself refuses, at commit, entries that do not sum to zero', async () => {
    const journalId = randomUUID();
    const accountId = randomUUID();
    await expect(
      tx(async (m) => {
        await m.query(
          `INSERT INTO ledger_accounts (id, tenant_id, livemode, kind, currency, keeps_totals, no_overdraft)
           VALUES ($1, $2, false, 'bank_clearing', 'USD', false, false)`,
          [accountId, scope.tenantId],
        );
        await m.query(
          `INSERT INTO ledger_journals (id, tenant_id, livemode, journal_key, kind, effective_at)
           VALUES ($1, $2, false, 'raw-unbalanced', 'test', now())`,
          [journalId, scope.tenantId],
        );
        await m.query(
          `INSERT INTO ledger_entries (journal_id, tenant_id, ledger_account_id, currency, direction, amount, effective_at)
           VALUES ($1, $2, $3, 'USD', 'debit', 5, now())`,
          [journalId, scope.tenantId, accountId],
        );
      }),
    ).rejects.toThrow(/does not balance in USD/);
  });

  it('entries are immutable; a correction is a reversing journal', async () => {
    const owner = randomUUID();
    await fund(owner, '40.00', 'to-reverse');
    await expect(
      ctx.dataSource.query(`UPDATE ledger_entries SET amount = 1 WHERE tenant_id = $1`, [scope.tenantId]),
    ).rejects.toThrow(/append-only/);
    await expect(
      ctx.dataSource.query(`DELETE FROM ledger_journals WHERE tenant_id = $1`, [scope.tenantId]),
    ).rejects.toThrow(/append-only/);
    const reversal = await tx((m) =>
      ledger.reverse(m, { ...scope, journalKey: 'to-reverse', reversalKey: 'reversal-1', effectiveAt: at }),
    );
    expect(reversal.created).toBe(true);
    expect((await balance(owner))?.cash).toBe('0.00');
    const [row] = await ctx.dataSource.query(
      `SELECT r.kind, r.reverses_journal_id = o.id AS linked FROM ledger_journals r, ledger_journals o
        WHERE r.id = $1 AND o.journal_key = 'to-reverse' AND o.tenant_id = $2`,
      [reversal.id, scope.tenantId],
    );
    expect(row).toEqual({ kind: 'reversal', linked: true });
    await expectConsistent();
  });

  it('a withdrawal hold lowers available cash at once; posting it with a fee debits cash and releases the hold', async () => {
    const owner = randomUUID();
    await fund(owner, '100.00');
    const held = await tx((m) =>
      ledger.hold(m, {
        ...scope,
        holdKey: 'wdr-1',
        kind: 'withdrawal',
        debit: cash(owner),
        credit: bank(),
        amount: '60.00',
        at,
      }),
    );
    expect(held).toMatchObject({ status: 'pending', kind: 'withdrawal' });
    expect(await balance(owner)).toMatchObject({
      cash: '100.00',
      available: '40.00',
      withdrawal_holds: '60.00',
    });
    // The same hold key again holds nothing more.
    await tx((m) =>
      ledger.hold(m, {
        ...scope,
        holdKey: 'wdr-1',
        kind: 'withdrawal',
        debit: cash(owner),
        credit: bank(),
        amount: '60.00',
        at,
      }),
    );
    expect((await balance(owner))?.available).toBe('40.00');
    const posted = await tx((m) =>
      ledger.postHold(m, {
        ...scope,
        holdKey: 'wdr-1',
        amount: '60.00',
        journal: {
          journalKey: 'wdr-1:settled',
          kind: 'withdrawal.settled',
          effectiveAt: at,
          entries: [
            { account: cash(owner), direction: 'debit', amount: '60.00' },
            { account: bank(), direction: 'credit', amount: '58.50' },
            { account: fees(), direction: 'credit', amount: '1.50' },
          ],
        },
      }),
    );
    expect(posted.status).toBe('posted');
    expect(await balance(owner)).toEqual({
      cash: '40.00',
      available: '40.00',
      pending_deposits: '0.00',
      withdrawal_holds: '0.00',
      order_holds: '0.00',
    });
    await expectConsistent();
  });

  it('a hold above available cash is refused with 422 SVC-422-002 naming the field the caller gives', async () => {
    const owner = randomUUID();
    await fund(owner, '20.00');
    const error = await tx((m) =>
      ledger.hold(
        m,
        {
          ...scope,
          holdKey: 'too-much',
          kind: 'withdrawal',
          debit: cash(owner),
          credit: bank(),
          amount: '20.01',
          at,
        },
        { insufficientFundsParam: 'amount' },
      ),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InsufficientFundsError);
    expect(error).toMatchObject({ code: 'SVC-422-002', param: 'amount', status: 422 });
    expect(await balance(owner)).toMatchObject({
      cash: '20.00',
      available: '20.00',
      withdrawal_holds: '0.00',
    });
  });

  it('a deposit is a pending credit until posted; voiding releases it', async () => {
    const owner = randomUUID();
    const deposit = (key: string, amount: string) =>
      tx((m) =>
        ledger.hold(m, {
          ...scope,
          holdKey: key,
          kind: 'deposit',
          debit: bank(),
          credit: cash(owner),
          amount,
          at,
        }),
      );
    await deposit('dep-1', '75.00');
    await deposit('dep-2', '5.00');
    expect(await balance(owner)).toMatchObject({
      cash: '0.00',
      available: '0.00',
      pending_deposits: '80.00',
    });
    await tx((m) =>
      ledger.postHold(m, {
        ...scope,
        holdKey: 'dep-1',
        amount: '75.00',
        journal: {
          journalKey: 'dep-1:settled',
          kind: 'deposit.settled',
          effectiveAt: at,
          entries: [
            { account: bank(), direction: 'debit', amount: '75.00' },
            { account: cash(owner), direction: 'credit', amount: '75.00' },
          ],
        },
      }),
    );
    await tx((m) => ledger.voidHold(m, { ...scope, holdKey: 'dep-2', at }));
    // Voiding twice is a no-op; posting a voided hold is not allowed.
    expect((await tx((m) => ledger.voidHold(m, { ...scope, holdKey: 'dep-2', at }))).status).toBe('voided');
    expect(await balance(owner)).toMatchObject({
      cash: '75.00',
      available: '75.00',
      pending_deposits: '0.00',
    });
    await expectConsistent();
  });

  it('an order hold may be posted in parts (partial fills) and the rest released', async () => {
    const owner = randomUUID();
    await fund(owner, '1000.00');
    await tx((m) =>
      ledger.hold(m, {
        ...scope,
        holdKey: 'ord-1',
        kind: 'order',
        debit: cash(owner),
        credit: { kind: 'securities_settlement', currency: 'USD' },
        amount: '500.00',
        at,
      }),
    );
    const fill = (n: number, amount: string, releaseRest: boolean) =>
      tx((m) =>
        ledger.postHold(m, {
          ...scope,
          holdKey: 'ord-1',
          amount,
          releaseRest,
          journal: {
            journalKey: `ord-1:fill:${n}`,
            kind: 'order.fill',
            effectiveAt: at,
            entries: [
              { account: cash(owner), direction: 'debit', amount },
              { account: { kind: 'securities_settlement', currency: 'USD' }, direction: 'credit', amount },
            ],
          },
        }),
      );
    expect((await fill(1, '200.00', false)).pendingAmount.toFixed(2)).toBe('300.00');
    expect(await balance(owner)).toMatchObject({
      cash: '800.00',
      available: '500.00',
      order_holds: '300.00',
    });
    expect((await fill(1, '200.00', false)).pendingAmount.toFixed(2)).toBe('300.00'); // same fill again: nothing
    const last = await fill(2, '250.00', true);
    expect(last).toMatchObject({ status: 'posted' });
    expect(await balance(owner)).toMatchObject({ cash: '550.00', available: '550.00', order_holds: '0.00' });
    await expectConsistent();
  });

  it('50 concurrent holds on one balance never take it below zero', async () => {
    const owner = randomUUID();
    await fund(owner, '1000.00');
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        tx((m) =>
          ledger.hold(m, {
            ...scope,
            holdKey: `race-${owner}-${i}`,
            kind: 'withdrawal',
            debit: cash(owner),
            credit: bank(),
            amount: '30.00',
            at,
          }),
        ),
      ),
    );
    const held = results.filter((r) => r.status === 'fulfilled').length;
    const refused = results.filter((r) => r.status === 'rejected');
    expect(held).toBe(33);
    expect(refused.every((r) => (r as PromiseRejectedResult).reason instanceof InsufficientFundsError)).toBe(
      true,
    );
    expect(await balance(owner)).toMatchObject({
      cash: '1000.00',
      available: '10.00',
      withdrawal_holds: '990.00',
    });
    await expectConsistent();
  });

  it('a hold placed in a write batch: held when the batch runs, refused above available cash with the batch rolled back', async () => {
    const owner = randomUUID();
    await fund(owner, '20.00');
    const withdraw = (holdKey: string, amount: string) =>
      tx(async (m) => {
        const batch = new WriteBatch();
        const before = await balance(owner);
        await ledger.holdInto(
          m,
          batch,
          { ...scope, holdKey, kind: 'withdrawal', debit: cash(owner), credit: bank(), amount, at },
          { insufficientFundsParam: 'amount' },
        );
        // Nothing is written before the batch runs.
        expect(await balance(owner)).toEqual(before);
        await batch.run(m);
      });
    const error = await withdraw(`batch-too-much-${owner}`, '20.01').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InsufficientFundsError);
    expect(error).toMatchObject({ code: 'SVC-422-002', param: 'amount', status: 422 });
    expect(
      await ctx.dataSource.query('SELECT 1 FROM ledger_holds WHERE hold_key = $1', [
        `batch-too-much-${owner}`,
      ]),
    ).toEqual([]);
    await withdraw(`batch-fits-${owner}`, '15.00');
    // The same key again holds nothing more.
    await withdraw(`batch-fits-${owner}`, '15.00');
    expect(await balance(owner)).toMatchObject({
      cash: '20.00',
      available: '5.00',
      withdrawal_holds: '15.00',
    });
    await expectConsistent();
  });

  it('50 concurrent batched holds on one balance never take it below zero', async () => {
    const owner = randomUUID();
    await fund(owner, '1000.00');
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        tx(async (m) => {
          const batch = new WriteBatch();
          await ledger.holdInto(m, batch, {
            ...scope,
            holdKey: `batch-race-${owner}-${i}`,
            kind: 'withdrawal',
            debit: cash(owner),
            credit: bank(),
            amount: '30.00',
            at,
          });
          await batch.run(m);
        }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(33);
    expect(results.every((r) => r.status === 'fulfilled' || r.reason instanceof InsufficientFundsError)).toBe(
      true,
    );
    expect(await balance(owner)).toMatchObject({
      cash: '1000.00',
      available: '10.00',
      withdrawal_holds: '990.00',
    });
    await expectConsistent();
  });

  it('cashAt gives the settled cash as of an instant of the clock', async () => {
    const owner = randomUUID();
    const post = (key: string, amount: string, effectiveAt: Date, direction: 'credit' | 'debit') =>
      tx((m) =>
        ledger.post(m, {
          ...scope,
          journalKey: key,
          kind: 'test',
          effectiveAt,
          entries: [
            { account: bank(), direction: direction === 'credit' ? 'debit' : 'credit', amount },
            { account: cash(owner), direction, amount },
          ],
        }),
      );
    await post(`${owner}-a`, '100.00', new Date('2026-01-05T15:00:00Z'), 'credit');
    await post(`${owner}-b`, '30.00', new Date('2026-01-06T15:00:00Z'), 'debit');
    const cashAt = async (iso: string) =>
      (await ledger.cashAt(scope, owner, 'USD', new Date(iso))).toFixed(2);
    expect(await cashAt('2026-01-05T14:59:59Z')).toBe('0.00');
    expect(await cashAt('2026-01-05T23:59:59Z')).toBe('100.00');
    expect(await cashAt('2026-01-06T15:00:00Z')).toBe('70.00');
  });

  it('live and test ledgers of a tenant are apart', async () => {
    const owner = randomUUID();
    await fund(owner, '10.00');
    expect(await ledger.balances({ ...scope, livemode: true }, owner)).toEqual([]);
  });

  it('erasing a tenant takes its ledger with it', async () => {
    const tenantId = await ctx.createTenant();
    const other = { tenantId, livemode: false };
    await tx((m) =>
      ledger.post(m, {
        ...other,
        journalKey: 'gone',
        kind: 'test',
        effectiveAt: at,
        entries: [
          { account: bank(), direction: 'debit', amount: '1.00' },
          { account: cash(randomUUID()), direction: 'credit', amount: '1.00' },
        ],
      }),
    );
    await ctx.dataSource.query('DELETE FROM tenants WHERE id = $1', [tenantId]);
    const [{ n }] = await ctx.dataSource.query(
      `SELECT (SELECT count(*) FROM ledger_entries WHERE tenant_id = $1)
            + (SELECT count(*) FROM ledger_journals WHERE tenant_id = $1)
            + (SELECT count(*) FROM ledger_accounts WHERE tenant_id = $1) AS n`,
      [tenantId],
    );
    expect(Number(n)).toBe(0);
  });

  const tx = <T>(work: (manager: EntityManager) => Promise<T>) => ctx.dataSource.transaction(work);

  /** A settled deposit: bank clearing to the investor's cash. */
  const fund = (ownerId: string, amount: string, key: string = randomUUID()) =>
    tx((m) =>
      ledger.post(m, {
        ...scope,
        journalKey: key,
        kind: 'deposit.settled',
        effectiveAt: at,
        entries: [
          { account: bank(), direction: 'debit', amount },
          { account: cash(ownerId), direction: 'credit', amount },
        ],
      }),
    );

  const balance = async (ownerId: string, currency = 'USD') => {
    const found = (await ledger.balances(scope, ownerId)).find((b) => b.currency === currency);
    return found
      ? {
          cash: found.cash.toFixed(2),
          available: found.available.toFixed(2),
          pending_deposits: found.pendingDeposits.toFixed(2),
          withdrawal_holds: found.withdrawalHolds.toFixed(2),
          order_holds: found.orderHolds.toFixed(2),
        }
      : undefined;
  };

  function expectConsistent(): Promise<void> {
    return expectLedgerConsistent(audit, scope.tenantId);
  }
});
