import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { WriteBatch } from 'src/core/database/write-batch';
import { newId } from 'src/core/ids/ids';
import type { PositionRow } from 'src/modules/trading/order-types';
import type { Scope } from 'src/modules/trading/orders.repository';

const SELECT = `id, tenant_id, livemode, account_id, asset_id, symbol, asset_class, currency,
  trim_scale(quantity)::text AS quantity, trim_scale(held_quantity)::text AS held_quantity,
  trim_scale(total_cost_basis)::text AS total_cost_basis, created_at, updated_at, last_transaction_at`;

export interface PositionAsset {
  accountId: string;
  assetId: string;
  symbol: string;
  assetClass: string;
  currency: string;
}

/** Reserves units of a position for a sell order, only if that many are not reserved yet. */
const RESERVE = `UPDATE positions SET held_quantity = held_quantity + $3
  WHERE account_id = $1 AND asset_id = $2 AND quantity - held_quantity >= $3 RETURNING id`;

/**
 * Positions per account and asset. Quantity held for open sell orders is reserved in
 * `held_quantity` by a conditional UPDATE, so two sells can never reserve the same shares.
 */
@Injectable()
export class PositionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Reserves `quantity` for a sell; false when fewer unreserved units are held. */
  async reserve(
    manager: EntityManager,
    accountId: string,
    assetId: string,
    quantity: string,
  ): Promise<boolean> {
    // TypeORM answers an UPDATE with [returned rows, affected count]: the count decides.
    const [, reserved]: [unknown[], number] = await manager.query(RESERVE, [accountId, assetId, quantity]);
    return reserved > 0;
  }

  /**
   * reserve() as a statement of the caller's batch: `check` sees, when the batch runs, whether the
   * units were reserved (and throws to refuse the order).
   */
  reserveInto(
    batch: WriteBatch,
    accountId: string,
    assetId: string,
    quantity: string,
    check: (reserved: boolean) => void,
  ): void {
    batch.add({
      sql: RESERVE,
      params: [accountId, assetId, quantity],
      changes: { table: 'positions', key: `${accountId}:${assetId}` },
      check: (rows) => check(rows > 0),
    });
  }

  async release(manager: EntityManager, accountId: string, assetId: string, quantity: string): Promise<void> {
    await manager.query(
      `UPDATE positions SET held_quantity = GREATEST(held_quantity - $3, 0) WHERE account_id = $1 AND asset_id = $2`,
      [accountId, assetId, quantity],
    );
  }

  /** Unreserved quantity (zero without a position). */
  async available(manager: EntityManager, accountId: string, assetId: string): Promise<string> {
    const rows: Array<{ free: string }> = await manager.query(
      `SELECT trim_scale(quantity - held_quantity)::text AS free FROM positions WHERE account_id = $1 AND asset_id = $2`,
      [accountId, assetId],
    );
    return rows[0]?.free ?? '0';
  }

  /**
   * A buy adds its quantity and its cost (weighted average cost basis). The position takes the
   * symbol the asset has now (one emptied before a symbol change follows it when bought again).
   */
  async addBuy(
    manager: EntityManager,
    scope: Scope,
    asset: PositionAsset,
    quantity: string,
    cost: string,
    at: Date,
  ): Promise<void> {
    await manager.query(
      `INSERT INTO positions (id, tenant_id, livemode, account_id, asset_id, symbol, asset_class, currency,
         quantity, held_quantity, total_cost_basis, created_at, updated_at, last_transaction_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 0, $10, $11, $11, $11)
       ON CONFLICT (account_id, asset_id) DO UPDATE SET quantity = positions.quantity + EXCLUDED.quantity,
         total_cost_basis = positions.total_cost_basis + EXCLUDED.total_cost_basis, symbol = EXCLUDED.symbol,
         updated_at = EXCLUDED.updated_at, last_transaction_at = EXCLUDED.last_transaction_at`,
      [
        newId('position'),
        scope.tenantId,
        scope.livemode,
        asset.accountId,
        asset.assetId,
        asset.symbol,
        asset.assetClass,
        asset.currency,
        quantity,
        cost,
        at,
      ],
    );
  }

  /**
   * A sell takes its quantity out of the reserved units and the cost basis in proportion (the
   * average cost per unit stays); selling the last unit leaves zero cost.
   */
  async removeSell(
    manager: EntityManager,
    accountId: string,
    assetId: string,
    quantity: string,
    at: Date,
  ): Promise<void> {
    await manager.query(
      `UPDATE positions SET
         total_cost_basis = CASE WHEN quantity = $3 THEN 0
                                 ELSE round(total_cost_basis - total_cost_basis * $3 / quantity, 8) END,
         quantity = quantity - $3, held_quantity = held_quantity - $3, updated_at = $4, last_transaction_at = $4
       WHERE account_id = $1 AND asset_id = $2`,
      [accountId, assetId, quantity, at],
    );
  }

  /**
   * A securities journal (JNLS): takes `quantity` of the source's unreserved units of `symbol` (or
   * asset id) with the cost basis in proportion (all of it with the last unit) and adds both to the
   * target's position. Null when the source holds fewer unreserved units (nothing changes).
   */
  async moveUnits(
    manager: EntityManager,
    scope: Scope,
    move: { fromAccountId: string; toAccountId: string; symbol: string; quantity: string; at: Date },
  ): Promise<{ assetId: string; symbol: string; currency: string; costBasis: string } | null> {
    const [rows]: [Array<PositionRow & { moved_cost: string }>, number] = await manager.query(
      `UPDATE positions p SET
         total_cost_basis = p.total_cost_basis - m.moved_cost, quantity = p.quantity - $5,
         updated_at = $6, last_transaction_at = $6
       FROM (SELECT id, CASE WHEN quantity = $5 THEN total_cost_basis
                             ELSE round(total_cost_basis * $5 / quantity, 8) END AS moved_cost
               FROM positions
              WHERE tenant_id = $1 AND livemode = $2 AND account_id = $3
                AND (upper(symbol) = upper($4) OR asset_id = $4) AND quantity - held_quantity >= $5
              FOR UPDATE) m
       WHERE p.id = m.id
       RETURNING p.asset_id, p.symbol, p.asset_class, p.currency, trim_scale(m.moved_cost)::text AS moved_cost`,
      [scope.tenantId, scope.livemode, move.fromAccountId, move.symbol, move.quantity, move.at],
    );
    const source = rows[0];
    if (!source) {
      return null;
    }
    await this.addBuy(
      manager,
      scope,
      {
        accountId: move.toAccountId,
        assetId: source.asset_id,
        symbol: source.symbol,
        assetClass: source.asset_class,
        currency: source.currency,
      },
      move.quantity,
      source.moved_cost,
      move.at,
    );
    return {
      assetId: source.asset_id,
      symbol: source.symbol,
      currency: source.currency,
      costBasis: source.moved_cost,
    };
  }

  /** Held positions of accounts (quantity above zero), oldest first. */
  listOf(
    scope: Scope,
    accountIds: string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<PositionRow[]> {
    return manager.query(
      `SELECT ${SELECT} FROM positions WHERE tenant_id = $1 AND livemode = $2 AND account_id = ANY($3::uuid[])
         AND quantity > 0 ORDER BY created_at, id`,
      [scope.tenantId, scope.livemode, accountIds],
    );
  }

  async findBySymbol(scope: Scope, accountId: string, symbol: string): Promise<PositionRow | null> {
    const rows: PositionRow[] = await this.dataSource.query(
      `SELECT ${SELECT} FROM positions WHERE tenant_id = $1 AND livemode = $2 AND account_id = $3
         AND (upper(symbol) = upper($4) OR asset_id = $4) AND quantity > 0`,
      [scope.tenantId, scope.livemode, accountId, symbol],
    );
    return rows[0] ?? null;
  }
}
