import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import type { EntityManager } from 'typeorm';
import type { WriteBatch } from 'src/core/database/write-batch';
import { newUuid } from 'src/core/ids/ids';
import { LEDGER_ACCOUNT_KINDS, LedgerAccountRef, LedgerScope } from 'src/modules/ledger/ledger-account-kinds';
import type { ResolvedEntry } from 'src/modules/ledger/journal-rules';
import type { HoldKind, HoldStatus } from 'src/modules/ledger/entities/ledger-hold.entity';

export interface TotalsDelta {
  debitsPosted: Decimal;
  creditsPosted: Decimal;
  debitsPending: Decimal;
  creditsPending: Decimal;
}

export interface HoldRow {
  id: string;
  hold_key: string;
  kind: HoldKind;
  debit_account_id: string;
  credit_account_id: string;
  currency: string;
  amount: string;
  pending_amount: string;
  status: HoldStatus;
  reference: string | null;
  effective_at: Date;
  resolved_at: Date | null;
}

/** A hold about to be placed. */
export interface NewHold {
  holdKey: string;
  kind: HoldKind;
  debitAccountId: string;
  creditAccountId: string;
  currency: string;
  amount: Decimal;
  at: Date;
  reference?: string;
}

/** A hold with the kinds of its two accounts (to know which keep running totals). */
export interface LockedHoldRow extends HoldRow {
  debit_kind: string;
  debit_owner_id: string | null;
  credit_kind: string;
  credit_owner_id: string | null;
}

export interface JournalRow {
  id: string;
  journal_key: string;
  kind: string;
  effective_at: Date;
  reference: string | null;
}

const KNOWN_ACCOUNTS_LIMIT = 100_000;
const HOLD_COLUMNS = `id, hold_key, kind, debit_account_id, credit_account_id, currency, amount, pending_amount,
  status, reference, effective_at, resolved_at`;

/** Every statement the ledger writes or reads. */
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
   * Adds to an account's running totals in one statement. For a no-overdraft account the UPDATE
   * only happens when posted and pending debits stay within posted credits afterwards; false when
   * it did not (the row lock serialises concurrent writers, each seeing the last committed totals).
   */
  async applyTotals(manager: EntityManager, accountId: string, delta: TotalsDelta): Promise<boolean> {
    // TypeORM answers an UPDATE with [returned rows, affected count].
    const [, updated]: [unknown[], number] = await manager.query(
      `UPDATE ledger_accounts
          SET debits_posted = debits_posted + $2, credits_posted = credits_posted + $3,
              debits_pending = debits_pending + $4, credits_pending = credits_pending + $5
        WHERE id = $1
          AND (NOT no_overdraft OR debits_posted + $2 + debits_pending + $4 <= credits_posted + $3)
        RETURNING id`,
      [
        accountId,
        delta.debitsPosted.toFixed(),
        delta.creditsPosted.toFixed(),
        delta.debitsPending.toFixed(),
        delta.creditsPending.toFixed(),
      ],
    );
    return updated === 1;
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

  /**
   * Inserts a pending hold unless its key exists (null then) and, in the same statement, adds it to
   * the pending total of the one account of the two that keeps totals (`totals`), under the
   * no-overdraft condition: `applied` false means the account refused (the caller throws, rolling
   * the inserted hold back with its transaction). One round trip for the whole first phase.
   */
  async insertHold(
    manager: EntityManager,
    scope: LedgerScope,
    hold: NewHold,
    totals: { accountId: string; side: 'debit' | 'credit' } | null,
  ): Promise<{ row: HoldRow; applied: boolean } | null> {
    const params = this.holdParams(scope, hold);
    let update = 'SELECT 1 AS id WHERE false';
    if (totals) {
      params.push(totals.accountId);
      update =
        totals.side === 'debit'
          ? `UPDATE ledger_accounts SET debits_pending = debits_pending + $9
              WHERE id = $12 AND EXISTS (SELECT 1 FROM hold)
                AND (NOT no_overdraft OR debits_posted + debits_pending + $9 <= credits_posted)
              RETURNING id`
          : `UPDATE ledger_accounts SET credits_pending = credits_pending + $9
              WHERE id = $12 AND EXISTS (SELECT 1 FROM hold) RETURNING id`;
    }
    const rows: Array<HoldRow & { applied: number }> = await manager.query(
      `WITH hold AS (
         INSERT INTO ledger_holds (id, tenant_id, livemode, hold_key, kind, debit_account_id, credit_account_id,
                                   currency, amount, pending_amount, status, reference, effective_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9, 'pending', $10, $11)
         ON CONFLICT (tenant_id, livemode, hold_key) DO NOTHING
         RETURNING ${HOLD_COLUMNS}),
       totals AS (${update})
       SELECT hold.*, (SELECT count(*) FROM totals)::int AS applied FROM hold`,
      params,
    );
    if (!rows[0]) {
      return null;
    }
    const { applied, ...row } = rows[0];
    return { row, applied: !totals || applied === 1 };
  }

  /**
   * insertHold as two statements of the caller's batch (the hold, then the pending total of the
   * one account of the two that keeps totals, only if the hold was inserted). After the batch ran,
   * `refused` is called when the account refused the amount (no-overdraft): the caller throws,
   * rolling its transaction back. A hold whose key exists is left as it is, totals untouched.
   */
  insertHoldInto(
    batch: WriteBatch,
    scope: LedgerScope,
    hold: NewHold,
    totals: { accountId: string; side: 'debit' | 'credit' } | null,
    refused: () => never,
  ): void {
    let inserted = 0;
    const placed = batch.add(
      `INSERT INTO ledger_holds (id, tenant_id, livemode, hold_key, kind, debit_account_id, credit_account_id,
                                 currency, amount, pending_amount, status, reference, effective_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9, 'pending', $10, $11)
       ON CONFLICT (tenant_id, livemode, hold_key) DO NOTHING
       RETURNING id`,
      this.holdParams(scope, hold),
      (rows) => {
        inserted = rows;
      },
    );
    if (!totals) {
      return;
    }
    batch.add(
      totals.side === 'debit'
        ? `UPDATE ledger_accounts SET debits_pending = debits_pending + $2
            WHERE id = $1 AND EXISTS (SELECT 1 FROM ${placed.name})
              AND (NOT no_overdraft OR debits_posted + debits_pending + $2 <= credits_posted)
            RETURNING id`
        : `UPDATE ledger_accounts SET credits_pending = credits_pending + $2
            WHERE id = $1 AND EXISTS (SELECT 1 FROM ${placed.name}) RETURNING id`,
      [totals.accountId, hold.amount.toFixed()],
      (rows) => {
        if (inserted === 1 && rows !== 1) {
          refused();
        }
      },
    );
  }

  private holdParams(scope: LedgerScope, hold: NewHold): unknown[] {
    return [
      newUuid(),
      scope.tenantId,
      scope.livemode,
      hold.holdKey,
      hold.kind,
      hold.debitAccountId,
      hold.creditAccountId,
      hold.currency,
      hold.amount.toFixed(),
      hold.reference ?? null,
      hold.at,
    ];
  }

  async findHold(manager: EntityManager, scope: LedgerScope, holdKey: string): Promise<HoldRow | null> {
    const rows: HoldRow[] = await manager.query(
      `SELECT ${HOLD_COLUMNS} FROM ledger_holds WHERE tenant_id = $1 AND livemode = $2 AND hold_key = $3`,
      [scope.tenantId, scope.livemode, holdKey],
    );
    return rows[0] ?? null;
  }

  /** The hold, locked until the caller's transaction ends, with its accounts' kinds. */
  async lockHold(manager: EntityManager, scope: LedgerScope, holdKey: string): Promise<LockedHoldRow | null> {
    const rows: LockedHoldRow[] = await manager.query(
      `SELECT ${HOLD_COLUMNS.replace(/(\w+)/g, 'h.$1')},
              d.kind AS debit_kind, d.owner_id AS debit_owner_id, c.kind AS credit_kind, c.owner_id AS credit_owner_id
         FROM ledger_holds h
         JOIN ledger_accounts d ON d.id = h.debit_account_id
         JOIN ledger_accounts c ON c.id = h.credit_account_id
        WHERE h.tenant_id = $1 AND h.livemode = $2 AND h.hold_key = $3
        FOR UPDATE OF h`,
      [scope.tenantId, scope.livemode, holdKey],
    );
    return rows[0] ?? null;
  }

  async updateHold(
    manager: EntityManager,
    id: string,
    change: { pendingAmount: Decimal; status: HoldStatus; resolvedAt: Date | null },
  ): Promise<HoldRow> {
    const [rows]: [HoldRow[], number] = await manager.query(
      `UPDATE ledger_holds SET pending_amount = $2, status = $3, resolved_at = $4, updated_at = now()
        WHERE id = $1 RETURNING ${HOLD_COLUMNS}`,
      [id, change.pendingAmount.toFixed(), change.status, change.resolvedAt],
    );
    return rows[0];
  }
}
