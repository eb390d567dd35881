import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { newId } from 'src/core/ids/ids';
import type { Scope } from 'src/modules/trading/orders.repository';
import type { PositionAsset } from 'src/modules/trading/positions.repository';

/** One holder of an asset as a corporate action reads it (locked until the caller commits). */
export interface HolderPosition {
  account_id: string;
  quantity: string;
  held_quantity: string;
  total_cost_basis: string;
}

/** A holder's quantity at an instant: the position now less what filled since. */
export interface EligibleHolder {
  account_id: string;
  eligible_quantity: string;
}

/**
 * The asset's positions of the accounts in `accountsParam` (a uuid[] parameter), each found by its
 * key (account, asset) through the ctid list: while an action is processed the planner's
 * statistics lag behind, and a join on the accounts could scan every holder of the asset per batch.
 * `$1`, `$2` and `$3` are the tenant, the mode and the asset.
 */
function positionsOf(accountsParam: string): string {
  return `ctid = ANY (ARRAY(
    SELECT (SELECT k.ctid FROM positions k
             WHERE k.account_id = a.id AND k.asset_id = $3 AND k.tenant_id = $1 AND k.livemode = $2)
      FROM unnest(${accountsParam}::uuid[]) AS a(id)))`;
}

/**
 * The positions of an asset's holders, as corporate actions read and change them in batches of
 * accounts inside the action's transaction: one statement per batch, whatever its size.
 */
@Injectable()
export class HolderPositionsRepository {
  /** Up to `limit` positions of an asset above zero after `afterAccountId`, locked FOR UPDATE. */
  holdersOfAsset(
    manager: EntityManager,
    scope: Scope,
    assetId: string,
    afterAccountId: string | null,
    limit: number,
  ): Promise<HolderPosition[]> {
    return manager.query(
      `SELECT account_id, trim_scale(quantity)::text AS quantity, trim_scale(held_quantity)::text AS held_quantity,
              trim_scale(total_cost_basis)::text AS total_cost_basis
         FROM positions
        WHERE tenant_id = $1 AND livemode = $2 AND asset_id = $3 AND quantity > 0
          AND ($4::uuid IS NULL OR account_id > $4::uuid)
        ORDER BY account_id LIMIT $5 FOR UPDATE`,
      [scope.tenantId, scope.livemode, assetId, afterAccountId, limit],
    );
  }

  /**
   * Quantities of an asset's holders at `at` (the close before an ex date): each position now less
   * its buys and plus its sells filled at or after `at`; only positive quantities, `limit` per call.
   */
  eligibleAt(
    manager: EntityManager,
    scope: Scope,
    assetId: string,
    at: Date,
    afterAccountId: string | null,
    limit: number,
  ): Promise<EligibleHolder[]> {
    return manager.query(
      `SELECT p.account_id, trim_scale(p.quantity - COALESCE(x.net, 0))::text AS eligible_quantity
         FROM positions p
         LEFT JOIN LATERAL (
           SELECT sum(CASE WHEN e.side = 'buy' THEN e.quantity ELSE -e.quantity END) AS net
             FROM executions e
            WHERE e.account_id = p.account_id AND e.asset_id = p.asset_id AND e.created_at >= $4
         ) x ON true
        WHERE p.tenant_id = $1 AND p.livemode = $2 AND p.asset_id = $3
          AND ($5::uuid IS NULL OR p.account_id > $5::uuid)
          AND p.quantity - COALESCE(x.net, 0) > 0
        ORDER BY p.account_id LIMIT $6`,
      [scope.tenantId, scope.livemode, assetId, at, afterAccountId, limit],
    );
  }

  /** Total cost basis of an asset's positions of some accounts, by account id. */
  async basisOf(
    manager: EntityManager,
    scope: Scope,
    assetId: string,
    accountIds: string[],
  ): Promise<Map<string, string>> {
    const rows: Array<{ account_id: string; basis: string }> = accountIds.length
      ? await manager.query(
          `SELECT account_id, trim_scale(total_cost_basis)::text AS basis FROM positions
            WHERE ${positionsOf('$4')}`,
          [scope.tenantId, scope.livemode, assetId, accountIds],
        )
      : [];
    return new Map(rows.map((r) => [r.account_id, r.basis]));
  }

  /** Sets held positions' quantities and total cost bases (a split, cash in lieu or merger). */
  async adjust(
    manager: EntityManager,
    scope: Scope,
    assetId: string,
    changes: Array<{ accountId: string; quantity: string; totalCostBasis: string }>,
    at: Date,
  ): Promise<void> {
    if (changes.length === 0) {
      return;
    }
    await manager.query(
      `UPDATE positions p SET quantity = x.quantity, total_cost_basis = x.basis, updated_at = $5,
              last_transaction_at = $5
         FROM unnest($4::uuid[], $6::numeric[], $7::numeric[]) AS x(account_id, quantity, basis)
        WHERE p.${positionsOf('$4')} AND p.account_id = x.account_id`,
      [
        scope.tenantId,
        scope.livemode,
        assetId,
        changes.map((c) => c.accountId),
        at,
        changes.map((c) => c.quantity),
        changes.map((c) => c.totalCostBasis),
      ],
    );
  }

  /** A symbol change: the positions show the asset's new symbol; quantity, basis and dates stay. */
  async rename(
    manager: EntityManager,
    scope: Scope,
    assetId: string,
    accountIds: string[],
    symbol: string,
  ): Promise<void> {
    if (accountIds.length === 0) {
      return;
    }
    await manager.query(`UPDATE positions SET symbol = $5 WHERE ${positionsOf('$4')}`, [
      scope.tenantId,
      scope.livemode,
      assetId,
      accountIds,
      symbol,
    ]);
  }

  /**
   * A stock merger: adds units and their cost basis to each account's position in the acquirer
   * (opening it where the account has none).
   */
  async addUnits(
    manager: EntityManager,
    scope: Scope,
    asset: Omit<PositionAsset, 'accountId'>,
    units: Array<{ accountId: string; quantity: string; totalCostBasis: string }>,
    at: Date,
  ): Promise<void> {
    if (units.length === 0) {
      return;
    }
    await manager.query(
      `INSERT INTO positions (id, tenant_id, livemode, account_id, asset_id, symbol, asset_class, currency,
         quantity, held_quantity, total_cost_basis, created_at, updated_at, last_transaction_at)
       SELECT u.id, $1, $2, u.account_id, $3, $4, $5, $6, u.quantity, 0, u.basis, $7, $7, $7
         FROM unnest($8::text[], $9::uuid[], $10::numeric[], $11::numeric[]) AS u(id, account_id, quantity, basis)
       ON CONFLICT (account_id, asset_id) DO UPDATE SET quantity = positions.quantity + EXCLUDED.quantity,
         total_cost_basis = positions.total_cost_basis + EXCLUDED.total_cost_basis, symbol = EXCLUDED.symbol,
         updated_at = EXCLUDED.updated_at, last_transaction_at = EXCLUDED.last_transaction_at`,
      [
        scope.tenantId,
        scope.livemode,
        asset.assetId,
        asset.symbol,
        asset.assetClass,
        asset.currency,
        at,
        units.map(() => newId('position')),
        units.map((u) => u.accountId),
        units.map((u) => u.quantity),
        units.map((u) => u.totalCostBasis),
      ],
    );
  }
}
