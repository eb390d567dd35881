import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import type { EntityManager } from 'typeorm';
import { newUuid } from 'src/core/ids/ids';
import { LEDGER_ACCOUNT_KINDS, LedgerAccountRef, LedgerScope } from 'src/modules/ledger/ledger-account-kinds';
import type { ResolvedEntry } from 'src/modules/ledger/journal-rules';
import { keepsWithinCredits } from 'src/modules/ledger/no-overdraft';

export interface TotalsDelta {
  debitsPosted: Decimal;
  creditsPosted: Decimal;
  debitsPending: Decimal;
  creditsPending: Decimal;
}

export interface JournalRow {
  id: string;
  journal_key: string;
  kind: string;
  effective_at: Date;
  reference: string | null;
}

const KNOWN_ACCOUNTS_LIMIT = 100_000;

/** Every statement on ledger accounts, journals and entries (holds: LedgerHoldsRepository). */
@Injectable()
export class LedgerRepository {
  /** Accounts seen committed in PostgreSQL: creating them again is skipped. */
  private readonly known = new Set<string>();

  /** Creates the accounts that do not exist yet (ids are derived, so this is idempotent). */
  async ensureAccounts(
    manager: EntityManager,
    scope: LedgerScope,
    accounts: Array<{ accountId: string; account: LedgerAccountRef }>,
  ): Promise<void> {
    const missing = [...new Map(accounts.map((a) => [a.accountId, a])).values()].filter(
      (a) => !this.known.has(a.accountId),
    );
    if (missing.length === 0) {
      return;
    }
    const params: unknown[] = [];
    const rows = missing.map(({ accountId, account }) => {
      const rule = LEDGER_ACCOUNT_KINDS[account.kind];
      params.push(accountId, scope.tenantId, scope.livemode, account.kind, account.ownerId ?? null);
      params.push(account.currency, rule.keepsTotals, rule.noOverdraft);
      const n = params.length;
      return `($${n - 7}, $${n - 6}, $${n - 5}, $${n - 4}, $${n - 3}, $${n - 2}, $${n - 1}, $${n})`;
    });
    const inserted: Array<{ id: string }> = await manager.query(
      `INSERT INTO ledger_accounts (id, tenant_id, livemode, kind, owner_id, currency, keeps_totals, no_overdraft)
       VALUES ${rows.join(', ')} ON CONFLICT (id) DO NOTHING RETURNING id`,
      params,
    );
    // Rows we inserted exist only if our transaction commits; those that conflicted are committed.
    const ours = new Set(inserted.map((r) => r.id));
    if (this.known.size > KNOWN_ACCOUNTS_LIMIT) {
      this.known.clear();
    }
    missing.filter((a) => !ours.has(a.accountId)).forEach((a) => this.known.add(a.accountId));
  }

  /**
   * Adds to accounts' running totals. For a no-overdraft account the UPDATE only happens when
   * posted and pending debits stay within posted credits afterwards; answers the accounts where it
   * did not (the row locks serialise concurrent writers, each seeing the last committed totals).
   * Several accounts are locked in id order first (so two writers never wait on each other's rows
   * in opposite orders), then changed in one statement; one account is one statement. The lock is
   * the UPDATE's own (FOR NO KEY UPDATE): FOR UPDATE would also wait on the key-share locks that
   * concurrent writers' new entries hold on the accounts they reference, a deadlock.
   */
  async applyTotals(
    manager: EntityManager,
    changes: Array<{ accountId: string; delta: TotalsDelta }>,
  ): Promise<Set<string>> {
    if (changes.length === 0) {
      return new Set();
    }
    const ids = changes.map((c) => c.accountId);
    if (changes.length > 1) {
      await manager.query(
        `SELECT id FROM ledger_accounts WHERE id = ANY($1::uuid[]) ORDER BY id FOR NO KEY UPDATE`,
        [ids],
      );
    }
    const column = (key: keyof TotalsDelta) => changes.map((c) => c.delta[key].toFixed());
    // TypeORM answers an UPDATE with [returned rows, affected count].
    const [updated]: [Array<{ id: string }>, number] = await manager.query(
      `UPDATE ledger_accounts a
          SET debits_posted = a.debits_posted + x.dp, credits_posted = a.credits_posted + x.cp,
              debits_pending = a.debits_pending + x.dq, credits_pending = a.credits_pending + x.cq
         FROM unnest($1::uuid[], $2::numeric[], $3::numeric[], $4::numeric[], $5::numeric[]) AS x(id, dp, cp, dq, cq)
        WHERE a.id = x.id
          AND ${keepsWithinCredits({ postedDebits: 'x.dp', pendingDebits: 'x.dq', postedCredits: 'x.cp' }, 'a')}
        RETURNING a.id::text AS id`,
      [
        ids,
        column('debitsPosted'),
        column('creditsPosted'),
        column('debitsPending'),
        column('creditsPending'),
      ],
    );
    const applied = new Set(updated.map((r) => r.id));
    return new Set(ids.filter((id) => !applied.has(id)));
  }

  /** Inserts the journal unless its key exists; null when it did (the earlier post stands). */
  async insertJournal(
    manager: EntityManager,
    scope: LedgerScope,
    journal: {
      journalKey: string;
      kind: string;
      effectiveAt: Date;
      description?: string;
      reference?: string;
      reversesJournalId?: string;
    },
  ): Promise<string | null> {
    const rows: Array<{ id: string }> = await manager.query(
      `INSERT INTO ledger_journals
              (id, tenant_id, livemode, journal_key, kind, description, reference, effective_at, reverses_journal_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (tenant_id, livemode, journal_key) DO NOTHING RETURNING id`,
      [
        newUuid(),
        scope.tenantId,
        scope.livemode,
        journal.journalKey,
        journal.kind,
        journal.description ?? null,
        journal.reference ?? null,
        journal.effectiveAt,
        journal.reversesJournalId ?? null,
      ],
    );
    return rows[0]?.id ?? null;
  }

  /**
   * insertJournal for many journals in one statement: the ids of those inserted, by key (a key
   * already posted is left out: the earlier post stands).
   */
  async insertJournals(
    manager: EntityManager,
    scope: LedgerScope,
    journals: Array<{
      journalKey: string;
      kind: string;
      effectiveAt: Date;
      description?: string;
      reference?: string;
    }>,
  ): Promise<Map<string, string>> {
    const rows: Array<{ id: string; journal_key: string }> = await manager.query(
      `INSERT INTO ledger_journals (id, tenant_id, livemode, journal_key, kind, description, reference, effective_at)
       SELECT gen_random_uuid(), $1, $2, j.journal_key, j.kind, j.description, j.reference, j.effective_at
         FROM jsonb_to_recordset($3::jsonb)
              AS j(journal_key text, kind text, description text, reference text, effective_at timestamptz)
       ON CONFLICT (tenant_id, livemode, journal_key) DO NOTHING RETURNING id, journal_key`,
      [
        scope.tenantId,
        scope.livemode,
        JSON.stringify(
          journals.map((j) => ({
            journal_key: j.journalKey,
            kind: j.kind,
            description: j.description ?? null,
            reference: j.reference ?? null,
            effective_at: j.effectiveAt.toISOString(),
          })),
        ),
      ],
    );
    return new Map(rows.map((r) => [r.journal_key, r.id]));
  }

  /** The entries of many journals in one statement. */
  async insertEntriesOfMany(
    manager: EntityManager,
    scope: LedgerScope,
    journals: Array<{ journalId: string; effectiveAt: Date; entries: ResolvedEntry[] }>,
  ): Promise<void> {
    const rows = journals.flatMap((j) =>
      j.entries.map((e) => ({
        journal_id: j.journalId,
        ledger_account_id: e.accountId,
        currency: e.account.currency,
        direction: e.direction,
        amount: e.amount.toFixed(),
        effective_at: j.effectiveAt.toISOString(),
      })),
    );
    await manager.query(
      `INSERT INTO ledger_entries (journal_id, tenant_id, ledger_account_id, currency, direction, amount, effective_at)
       SELECT e.journal_id, $1, e.ledger_account_id, e.currency, e.direction, e.amount, e.effective_at
         FROM jsonb_to_recordset($2::jsonb) AS e(journal_id uuid, ledger_account_id uuid, currency text,
              direction text, amount numeric, effective_at timestamptz)`,
      [scope.tenantId, JSON.stringify(rows)],
    );
  }

  async findJournal(
    manager: EntityManager,
    scope: LedgerScope,
    journalKey: string,
  ): Promise<JournalRow | null> {
    const rows: JournalRow[] = await manager.query(
      `SELECT id, journal_key, kind, effective_at, reference FROM ledger_journals
        WHERE tenant_id = $1 AND livemode = $2 AND journal_key = $3`,
      [scope.tenantId, scope.livemode, journalKey],
    );
    return rows[0] ?? null;
  }

  async insertEntries(
    manager: EntityManager,
    scope: LedgerScope,
    journalId: string,
    effectiveAt: Date,
    entries: ResolvedEntry[],
  ): Promise<void> {
    const params: unknown[] = [journalId, scope.tenantId, effectiveAt];
    const rows = entries.map((e) => {
      params.push(e.accountId, e.account.currency, e.direction, e.amount.toFixed());
      const n = params.length;
      return `($1, $2, $${n - 3}, $${n - 2}, $${n - 1}, $${n}, $3)`;
    });
    await manager.query(
      `INSERT INTO ledger_entries (journal_id, tenant_id, ledger_account_id, currency, direction, amount, effective_at)
       VALUES ${rows.join(', ')}`,
      params,
    );
  }

  /** A journal's entries with their accounts (for reversals). */
  async journalEntries(
    manager: EntityManager,
    journalId: string,
  ): Promise<
    Array<{
      direction: 'debit' | 'credit';
      amount: string;
      kind: string;
      owner_id: string | null;
      currency: string;
    }>
  > {
    return manager.query(
      `SELECT e.direction, e.amount, a.kind, a.owner_id, a.currency
         FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.ledger_account_id
        WHERE e.journal_id = $1 ORDER BY e.id`,
      [journalId],
    );
  }
}
