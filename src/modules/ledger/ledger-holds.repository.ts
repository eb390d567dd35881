import { Injectable } from '@nestjs/common';
import type Decimal from 'decimal.js';
import type { EntityManager } from 'typeorm';
import type { WriteBatch } from 'src/core/database/write-batch';
import { keepsWithinCredits } from 'src/modules/ledger/no-overdraft';
import { newUuid } from 'src/core/ids/ids';
import type { LedgerScope } from 'src/modules/ledger/ledger-account-kinds';
import type { HoldKind, HoldStatus } from 'src/modules/ledger/entities/ledger-hold.entity';

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

const HOLD_COLUMNS = `id, hold_key, kind, debit_account_id, credit_account_id, currency, amount, pending_amount,
  status, reference, effective_at, resolved_at`;

/** Every statement on `ledger_holds` (the first phase of two-phase transfers). */
@Injectable()
export class LedgerHoldsRepository {
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
    const params = totals
      ? [...this.holdParams(scope, hold), totals.accountId]
      : this.holdParams(scope, hold);
    const update = totals
      ? pendingTotalUpdate(totals.side, { account: '$12', amount: '$9', hold: 'hold' })
      : 'SELECT 1 AS id WHERE false';
    const rows: Array<HoldRow & { applied: number }> = await manager.query(
      `WITH hold AS (${insertHoldSql(HOLD_COLUMNS)}), totals AS (${update})
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
   * one account of the two that keeps totals, only if the hold was inserted), with the same SQL.
   * After the batch ran, `refused` is called when the account refused the amount (no-overdraft):
   * the caller throws, rolling its transaction back. A hold whose key exists is left as it is,
   * totals untouched.
   */
  insertHoldInto(
    batch: WriteBatch,
    scope: LedgerScope,
    hold: NewHold,
    totals: { accountId: string; side: 'debit' | 'credit' } | null,
    refused: () => never,
  ): void {
    let inserted = 0;
    const placed = batch.add({
      sql: insertHoldSql('id'),
      params: this.holdParams(scope, hold),
      changes: { table: 'ledger_holds', key: `${scope.tenantId}:${scope.livemode}:${hold.holdKey}` },
      check: (rows) => {
        inserted = rows;
      },
    });
    if (!totals) {
      return;
    }
    batch.add({
      sql: pendingTotalUpdate(totals.side, { account: '$1', amount: '$2', hold: placed.name }),
      params: [totals.accountId, hold.amount.toFixed()],
      changes: { table: 'ledger_accounts', key: totals.accountId },
      check: (rows) => {
        if (inserted === 1 && rows !== 1) {
          refused();
        }
      },
    });
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

/** A pending hold unless its key exists; `$1..$11` are LedgerHoldsRepository.holdParams. */
function insertHoldSql(returning: string): string {
  return `INSERT INTO ledger_holds (id, tenant_id, livemode, hold_key, kind, debit_account_id, credit_account_id,
                                  currency, amount, pending_amount, status, reference, effective_at)
          VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9, 'pending', $10, $11)
          ON CONFLICT (tenant_id, livemode, hold_key) DO NOTHING
          RETURNING ${returning}`;
}

/**
 * A new hold's amount added to the pending total of the one account of the two that keeps totals,
 * only when the hold was inserted (`hold` names the statement that inserted it); a pending debit
 * under the no-overdraft rule.
 */
function pendingTotalUpdate(
  side: 'debit' | 'credit',
  p: { account: string; amount: string; hold: string },
): string {
  return side === 'debit'
    ? `UPDATE ledger_accounts SET debits_pending = debits_pending + ${p.amount}
        WHERE id = ${p.account} AND EXISTS (SELECT 1 FROM ${p.hold})
          AND ${keepsWithinCredits({ pendingDebits: p.amount })}
        RETURNING id`
    : `UPDATE ledger_accounts SET credits_pending = credits_pending + ${p.amount}
        WHERE id = ${p.account} AND EXISTS (SELECT 1 FROM ${p.hold}) RETURNING id`;
}
