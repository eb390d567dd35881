import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { resolveEntries, totalsByAccount } from 'src/modules/ledger/journal-rules';
import type { LedgerAccountKind, LedgerScope } from 'src/modules/ledger/ledger-account-kinds';
import { LedgerRuleError } from 'src/modules/ledger/ledger-errors';
import { LedgerRepository } from 'src/modules/ledger/ledger.repository';
import type { FundsOptions, JournalInput, PostedJournal } from 'src/modules/ledger/ledger.types';
import { TotalsChange } from 'src/modules/ledger/totals';

/** Posting journals: the one function every cash movement goes through. */
@Injectable()
export class JournalBook {
  constructor(private readonly repository: LedgerRepository) {}

  /**
   * Posts a balanced journal in the caller's transaction: the journal row, its entries and the
   * running totals of the accounts it touches. Its key makes a retry a no-op. A debit that would
   * overdraw a no-overdraft account throws InsufficientFundsError (the caller's transaction rolls back).
   */
  async post(
    manager: EntityManager,
    input: JournalInput & { reversesJournalId?: string },
    options: FundsOptions = {},
    totals: TotalsChange = new TotalsChange(),
  ): Promise<PostedJournal> {
    const entries = resolveEntries(input, input.entries);
    const journalId = await this.repository.insertJournal(manager, input, input);
    if (!journalId) {
      const existing = await this.repository.findJournal(manager, input, input.journalKey);
      return { id: existing!.id, journalKey: input.journalKey, created: false };
    }
    await this.repository.ensureAccounts(manager, input, entries);
    await this.repository.insertEntries(manager, input, journalId, input.effectiveAt, entries);
    for (const sums of totalsByAccount(entries)) {
      totals.add(sums.accountId, sums.account, { debitsPosted: sums.debits, creditsPosted: sums.credits });
    }
    await totals.apply(manager, this.repository, options.insufficientFundsParam);
    return { id: journalId, journalKey: input.journalKey, created: true };
  }

  /**
   * Posts many balanced journals of one scope together: all of them or none (a debit that would
   * overdraw refuses the whole set with InsufficientFundsError). Four statements however many
   * journals, plus one running-total update per account touched. Keys already posted are skipped.
   */
  async postMany(
    manager: EntityManager,
    scope: LedgerScope,
    journals: Array<Omit<JournalInput, 'tenantId' | 'livemode'>>,
    options: FundsOptions = {},
  ): Promise<PostedJournal[]> {
    const resolved = journals.map((j) => ({ journal: j, entries: resolveEntries(scope, j.entries) }));
    const ids = await this.repository.insertJournals(manager, scope, journals);
    const fresh = resolved.filter((r) => ids.has(r.journal.journalKey));
    await this.repository.ensureAccounts(
      manager,
      scope,
      fresh.flatMap((r) => r.entries),
    );
    await this.repository.insertEntriesOfMany(
      manager,
      scope,
      fresh.map((r) => ({
        journalId: ids.get(r.journal.journalKey)!,
        effectiveAt: r.journal.effectiveAt,
        entries: r.entries,
      })),
    );
    const totals = new TotalsChange();
    for (const sums of totalsByAccount(fresh.flatMap((r) => r.entries))) {
      totals.add(sums.accountId, sums.account, { debitsPosted: sums.debits, creditsPosted: sums.credits });
    }
    await totals.apply(manager, this.repository, options.insufficientFundsParam);
    const posted: PostedJournal[] = [];
    for (const { journal } of resolved) {
      const id = ids.get(journal.journalKey);
      posted.push(
        id
          ? { id, journalKey: journal.journalKey, created: true }
          : {
              id: (await this.repository.findJournal(manager, scope, journal.journalKey))!.id,
              journalKey: journal.journalKey,
              created: false,
            },
      );
    }
    return posted;
  }

  /** Whether a journal key was already posted (in this transaction's view). */
  async exists(manager: EntityManager, scope: LedgerScope, journalKey: string): Promise<boolean> {
    return (await this.repository.findJournal(manager, scope, journalKey)) !== null;
  }

  /**
   * Corrects a posted journal by posting its mirror image (every debit a credit and back) under
   * `reversalKey`, linked to it. Entries are never changed or deleted.
   */
  async reverse(
    manager: EntityManager,
    input: LedgerScope & { journalKey: string; reversalKey: string; effectiveAt: Date; description?: string },
    options: FundsOptions = {},
  ): Promise<PostedJournal> {
    const original = await this.repository.findJournal(manager, input, input.journalKey);
    if (!original) {
      throw new LedgerRuleError(`no journal ${input.journalKey} to reverse`);
    }
    const entries = await this.repository.journalEntries(manager, original.id);
    return this.post(
      manager,
      {
        tenantId: input.tenantId,
        livemode: input.livemode,
        journalKey: input.reversalKey,
        kind: 'reversal',
        effectiveAt: input.effectiveAt,
        description: input.description ?? `Reversal of ${original.journal_key}`,
        reference: original.reference ?? undefined,
        reversesJournalId: original.id,
        entries: entries.map((e) => ({
          account: {
            kind: e.kind as LedgerAccountKind,
            currency: e.currency,
            ...(e.owner_id ? { ownerId: e.owner_id } : {}),
          },
          direction: e.direction === 'debit' ? 'credit' : 'debit',
          amount: e.amount,
        })),
      },
      options,
    );
  }
}
