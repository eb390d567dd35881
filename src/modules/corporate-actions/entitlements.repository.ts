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

  /**
   * Claims the application of an action to accounts (or snapshots a cash dividend's holders):
   * inserts their entitlements as `pending` unless they exist. Answers the accounts claimed (one
   * already handled, by a retried batch, is not among them).
   */
  async claim(
    manager: EntityManager,
    scope: Scope,
    actionId: string,
    rows: Array<{ accountId: string; investorId: string | null; eligible: string }>,
    at: Date,
  ): Promise<Set<string>> {
    if (rows.length === 0) {
      return new Set();
    }
    const claimed: Array<{ account_id: string }> = await manager.query(
      `INSERT INTO corporate_action_entitlements
         (action_id, tenant_id, livemode, account_id, investor_id, eligible_quantity, status, created_at)
       SELECT $1, $2, $3, x.account_id, x.investor_id, x.eligible, 'pending', $7
         FROM unnest($4::uuid[], $5::text[], $6::numeric[]) AS x(account_id, investor_id, eligible)
       ON CONFLICT DO NOTHING RETURNING account_id::text AS account_id`,
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
    return new Set(claimed.map((r) => r.account_id));
  }

  /**
   * Up to `limit` pending entitlements of an action after `afterAccountId` (the last account of the
   * batch before: every entitlement up to it is settled), in account order, locked.
   */
  pending(
    manager: EntityManager,
    scope: Scope,
    actionId: string,
    afterAccountId: string | null,
    limit: number,
  ): Promise<EntitlementRow[]> {
    return manager.query(
      `SELECT ${SELECT} FROM corporate_action_entitlements
        WHERE action_id = $1 AND tenant_id = $2 AND livemode = $3 AND status = 'pending'
          AND ($5::uuid IS NULL OR account_id > $5::uuid)
        ORDER BY account_id LIMIT $4 FOR UPDATE`,
      [actionId, scope.tenantId, scope.livemode, limit, afterAccountId],
    );
  }

  /**
   * Records the outcomes of pending entitlements, by account; answers the accounts whose
   * entitlement was still pending (the others are left as they are).
   */
  async complete(
    manager: EntityManager,
    scope: Scope,
    actionId: string,
    outcomes: Map<string, Outcome>,
  ): Promise<Set<string>> {
    if (outcomes.size === 0) {
      return new Set();
    }
    const list = [...outcomes].map(([accountId, o]) => ({ accountId, ...o }));
    const column = (pick: (o: (typeof list)[number]) => unknown) => list.map(pick);
    // Each row is found by its whole primary key (the ctid list), whatever the planner believes of
    // the action's size: while an action is processed its entitlements are newer than the table's
    // statistics, and a join on the key would scan every entitlement of the action per batch.
    // An UPDATE answers [rows, count] through TypeORM.
    const [changed]: [Array<{ account_id: string }>, number] = await manager.query(
      `WITH x AS (
         SELECT * FROM unnest($4::uuid[], $5::numeric[], $6::numeric[], $7::numeric[], $8::numeric[], $9::numeric[],
                              $10::text[], $11::timestamptz[])
           AS x(account_id, cash, withholding, net_cash, quantity_change, cash_in_lieu, status, applied_at)
       )
       UPDATE corporate_action_entitlements e SET cash = x.cash, withholding = x.withholding,
              net_cash = x.net_cash, quantity_change = x.quantity_change, cash_in_lieu = x.cash_in_lieu,
              status = x.status, applied_at = x.applied_at
         FROM x
        WHERE e.ctid = ANY (ARRAY(
                SELECT (SELECT k.ctid FROM corporate_action_entitlements k
                         WHERE k.action_id = $1 AND k.tenant_id = $2 AND k.livemode = $3 AND k.account_id = x.account_id)
                  FROM x))
          AND e.account_id = x.account_id AND e.status = 'pending'
       RETURNING e.account_id::text AS account_id`,
      [
        actionId,
        scope.tenantId,
        scope.livemode,
        column((o) => o.accountId),
        column((o) => o.cash),
        column((o) => o.withholding),
        column((o) => o.netCash),
        column((o) => o.quantityChange),
        column((o) => o.cashInLieu),
        column((o) => o.status),
        column((o) => (o.status === 'applied' ? o.at : null)),
      ],
    );
    return new Set(changed.map((r) => r.account_id));
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
