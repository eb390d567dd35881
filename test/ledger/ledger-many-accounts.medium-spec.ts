import { randomUUID } from 'node:crypto';
import Decimal from 'decimal.js';
import { LedgerModule } from 'src/modules/ledger/ledger.module';
import { LedgerAudit } from 'src/modules/ledger/ledger-audit.service';
import { InsufficientFundsError } from 'src/modules/ledger/ledger-errors';
import { LedgerService } from 'src/modules/ledger/ledger.service';
import type { LedgerScope } from 'src/modules/ledger/ledger-account-kinds';
import { madeBeforeAll } from '../support/made-before-all';
import { createServiceContext, describeLocal } from '../support/service-context';
import { bank, cash, expectLedgerConsistent } from './support/ledger-accounts';

/**
 * Writes that change the running totals of several accounts at once (ledger.postMany, a conversion
 * between two currencies of one account): the accounts are locked in id order, then changed in one
 * UPDATE, under the no-overdraft rule of each.
 */
describeLocal('Ledger writes over several accounts (service on a real database)', () => {
  const ctx = madeBeforeAll('The service context', () => createServiceContext([LedgerModule]));
  const ledger = madeBeforeAll('The ledger', () => Promise.resolve(ctx.app.get(LedgerService)));
  let scope: LedgerScope;
  beforeAll(async () => (scope = { tenantId: await ctx.createTenant(), livemode: false }));

  it('a set of journals over several accounts posts all or nothing: one overdraft refuses the set', async () => {
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    await postMany([move('bank', a, '100.00'), move('bank', b, '20.00')]);
    const refused = await postMany([move(a, c, '60.00'), move(b, c, '20.01')]).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(InsufficientFundsError);
    expect((refused as InsufficientFundsError).param).toBe('amount');
    expect([await cashOf(a), await cashOf(b), await cashOf(c)]).toEqual(['100.00', '20.00', '0.00']);
    await postMany([move(a, c, '60.00'), move(b, c, '20.00'), move(c, a, '5.00')]);
    expect([await cashOf(a), await cashOf(b), await cashOf(c)]).toEqual(['45.00', '0.00', '75.00']);
    await expectConsistent();
  });

  it('40 concurrent transfers between two accounts in both directions all post, without a deadlock', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    await postMany([move('bank', a, '1000.00'), move('bank', b, '1000.00')]);
    // Half move a → b, half b → a, each as a pair of journals touching both accounts in its own order.
    const results = await Promise.allSettled(
      Array.from({ length: 40 }, (_, i) =>
        i % 2 === 0
          ? postMany([move(a, b, '3.00'), move(b, a, '1.00')])
          : postMany([move(b, a, '2.00'), move(a, b, '1.00')]),
      ),
    );
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    // Independently: each even transfer moves 2.00 a → b, each odd one 1.00 b → a; 20 of each.
    expect(await cashOf(a)).toBe(new Decimal(1000).minus(new Decimal(2).times(20)).plus(20).toFixed(2));
    expect(await cashOf(b)).toBe(new Decimal(1000).plus(new Decimal(2).times(20)).minus(20).toFixed(2));
    await expectConsistent();
  });

  it('50 concurrent writes drawing on one balance among other accounts never take it below zero', async () => {
    const payer = randomUUID();
    const payees = Array.from({ length: 5 }, () => randomUUID());
    await postMany([move('bank', payer, '100.00')]);
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        postMany([move(payer, payees[i % 5], '7.00'), move('bank', payees[(i + 1) % 5], '1.00')]),
      ),
    );
    const posted = results.filter((r) => r.status === 'fulfilled').length;
    const refused = results.filter((r) => r.status === 'rejected');
    expect(posted).toBe(14); // floor(100 / 7)
    expect(refused.every((r) => (r as PromiseRejectedResult).reason instanceof InsufficientFundsError)).toBe(
      true,
    );
    expect(await cashOf(payer)).toBe('2.00');
    await expectConsistent();
  });

  const at = new Date('2026-03-02T15:00:00Z');

  /** A journal moving `amount` from one investor's cash to another's. */
  const move = (from: string, to: string, amount: string) => ({
    journalKey: randomUUID(),
    kind: 'journal.executed',
    effectiveAt: at,
    entries: [
      { account: from === 'bank' ? bank() : cash(from), direction: 'debit' as const, amount },
      { account: cash(to), direction: 'credit' as const, amount },
    ],
  });

  const postMany = (journals: Array<ReturnType<typeof move>>) =>
    ctx.dataSource.transaction((m) =>
      ledger.postMany(m, scope, journals, { insufficientFundsParam: 'amount' }),
    );

  const cashOf = async (owner: string) =>
    ((await ledger.balances(scope, owner)).find((b) => b.currency === 'USD')?.cash ?? new Decimal(0)).toFixed(
      2,
    );

  function expectConsistent(): Promise<void> {
    return expectLedgerConsistent(ctx.app.get(LedgerAudit), scope.tenantId);
  }
});
