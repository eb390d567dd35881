import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { EntitlementRow, EntitlementStatus } from 'src/modules/corporate-actions/corporate-action.types';
import type { Scope } from 'src/modules/corporate-actions/corporate-actions.repository';

const SELECT = `action_id, account_id::text AS account_id, investor_id,
  trim_scale(eligible_quantity)::text AS eligible_quantity, trim_scale(cash)::text AS cash,
  trim_scale(withholding)::text AS withholding, trim_scale(net_cash)::text AS net_cash,
  trim_scale(quantity_change)::text AS quantity_change, trim_scale(cash_in_lieu)::text AS cash_in_lieu,
  status, applied_at`;

/** What an application wrote for one account. */
export interface Outcome {
  cash: string;
  withholding: string;
  netCash: string;
  quantityChange: string;
  cashInLieu: string;
  status: Exclude<EntitlementStatus, 'pending'>;
  at: Date;
}

/**
 * One entitlement per action, tenant, mode and account (the primary key): the snapshot of what an
 * account is owed, and the key that lets an application happen once only.
 */
@Injectable()
export class EntitlementsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Snapshot rows of a cash dividend, `pending` until paid; existing rows stay as they are. */
  async insertPending(
    manager: EntityManager,
    scope: Scope,
    actionId: string,
    rows: Array<{ accountId: string; investorId: string | null; eligible: string }>,
    at: Date,
  ): Promise<void> {
    if (rows.length === 0) {
      return;
    }
    await manager.query(
      `INSERT INTO corporate_action_entitlements
         (action_id, tenant_id, livemode, account_id, investor_id, eligible_quantity, status, created_at)
       SELECT $1, $2, $3, x.account_id, x.investor_id, x.eligible, 'pending', $7
         FROM unnest($4::uuid[], $5::text[], $6::numeric[]) AS x(account_id, investor_id, eligible)
       ON CONFLICT DO NOTHING`,
      [
        actionId,
        scope.tenantId,
        scope.livemode,
        rows.map((r) => r.accountId),
        rows.map((r) => r.investorId),
        rows.map((r) => r.eligible),
        at,
      ],
    );
  }

  /**
   * Claims the application of an action to an account: inserts its entitlement as `pending`
   * unless one exists. False when the account was already handled (a retried batch).
   */
  async claim(
    manager: EntityManager,
    scope: Scope,
    actionId: string,
    row: { accountId: string; investorId: string | null; eligible: string },
    at: Date,
  ): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `INSERT INTO corporate_action_entitlements
         (action_id, tenant_id, livemode, account_id, investor_id, eligible_quantity, status, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, 'pending', $7) ON CONFLICT DO NOTHING RETURNING account_id`,
      [actionId, scope.tenantId, scope.livemode, row.accountId, row.investorId, row.eligible, at],
    );
    return rows.length > 0;
  }

  /** Up to `limit` pending entitlements of an action, in account order, locked. */
  pending(manager: EntityManager, scope: Scope, actionId: string, limit: number): Promise<EntitlementRow[]> {
    return manager.query(
      `SELECT ${SELECT} FROM corporate_action_entitlements
        WHERE action_id = $1 AND tenant_id = $2 AND livemode = $3 AND status = 'pending'
        ORDER BY account_id LIMIT $4 FOR UPDATE`,
      [actionId, scope.tenantId, scope.livemode, limit],
    );
  }

  /** Records the outcome of a pending entitlement; false when it was no longer pending. */
  async complete(
    manager: EntityManager,
    scope: Scope,
    actionId: string,
    accountId: string,
    o: Outcome,
  ): Promise<boolean> {
    const [, changed]: [unknown, number] = await manager.query(
      `UPDATE corporate_action_entitlements SET cash = $5, withholding = $6, net_cash = $7, quantity_change = $8,
         cash_in_lieu = $9, status = $10, applied_at = $11
        WHERE action_id = $1 AND tenant_id = $2 AND livemode = $3 AND account_id = $4 AND status = 'pending'`,
      [
        actionId,
        scope.tenantId,
        scope.livemode,
        accountId,
        o.cash,
        o.withholding,
        o.netCash,
        o.quantityChange,
        o.cashInLieu,
        o.status,
        o.status === 'applied' ? o.at : null,
      ],
    );
    return changed > 0;
  }

  /** Entitlements of an action in account order after `afterAccountId`; limit + 1 rows. */
  page(
    scope: Scope,
    actionId: string,
    limit: number,
    afterAccountId: string | null,
  ): Promise<EntitlementRow[]> {
    return this.dataSource.query(
      `SELECT ${SELECT} FROM corporate_action_entitlements
        WHERE action_id = $1 AND tenant_id = $2 AND livemode = $3 AND ($4::uuid IS NULL OR account_id > $4::uuid)
        ORDER BY account_id LIMIT $5`,
      [actionId, scope.tenantId, scope.livemode, afterAccountId, limit + 1],
    );
  }
}
