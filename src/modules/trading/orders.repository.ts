import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { WriteBatch } from 'src/core/database/write-batch';
import { COLUMNS, OPEN, SELECT, TICK_UNCHANGED, TickQuote } from 'src/modules/trading/order-sql';
import type { OrderRow, OrderSide, OrderStatus } from 'src/modules/trading/order-types';

export type { TickQuote } from 'src/modules/trading/order-sql';

export interface Scope {
  tenantId: string;
  livemode: boolean;
}

export interface AccountOrderFilter {
  status?: OrderStatus;
  symbol?: string;
  side?: OrderSide;
  updatedSince?: Date;
  limit: number;
  offset: number;
}

/** A moved water mark or a triggered stop of one order (undefined: unchanged). */
export interface OrderMark {
  id: string;
  waterMark?: string;
  triggered?: boolean;
}

export interface OrderChange {
  status?: OrderStatus;
  filledQuantity?: string;
  filledNotional?: string;
  fillCount?: number;
  priceDecimals?: number;
  commission?: string;
  holdUsed?: string;
  waterMark?: string;
  triggered?: boolean;
  rejectReason?: string;
  cancelReason?: string;
  filledAt?: Date;
  canceledAt?: Date;
  updatedAt: Date;
}

/** An order row's INSERT (`insertValues` are its parameters), shared by every way of writing one. */
const INSERT_ORDER = `INSERT INTO orders (${COLUMNS.map((c) => `"${c}"`).join(', ')})
  VALUES (${COLUMNS.map((_, i) => `$${i + 1}`).join(', ')})`;

/** Nothing is written when the account already has an order with the client_order_id. */
const UNLESS_CLIENT_ORDER_ID_TAKEN = 'ON CONFLICT ("account_id", "client_order_id") DO NOTHING';

function insertValues(order: OrderRow): unknown[] {
  return COLUMNS.map((c) => (c === 'metadata' ? JSON.stringify(order.metadata) : order[c]));
}

/** Orders: every query of the orders table lives here (executions: ExecutionsRepository). */
@Injectable()
export class OrdersRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(manager: EntityManager, order: OrderRow): Promise<void> {
    await manager.query(INSERT_ORDER, insertValues(order));
  }

  /**
   * Writes an accepted order and returns it as stored (canonical numerics, jsonb metadata), or null
   * when the account already has an order with its client_order_id (a concurrent one waits for the
   * other's commit). One round trip instead of a check, an insert and a read.
   */
  async insertUnlessClientOrderIdTaken(manager: EntityManager, order: OrderRow): Promise<OrderRow | null> {
    const rows: OrderRow[] = await manager.query(
      `${INSERT_ORDER} ${UNLESS_CLIENT_ORDER_ID_TAKEN} RETURNING ${SELECT}`,
      insertValues(order),
    );
    return rows[0] ?? null;
  }

  /**
   * insertUnlessClientOrderIdTaken as a statement of the caller's batch: `taken` is called (and
   * should throw) when the account already has an order with the client_order_id.
   */
  insertInto(batch: WriteBatch, order: OrderRow, taken: () => never): void {
    batch.add({
      sql: `${INSERT_ORDER} ${UNLESS_CLIENT_ORDER_ID_TAKEN} RETURNING id`,
      params: insertValues(order),
      changes: { table: 'orders', key: order.id },
      check: (rows) => {
        if (rows === 0) {
          taken();
        }
      },
    });
  }

  async find(
    scope: Scope,
    accountId: string,
    orderId: string,
    manager: EntityManager = this.dataSource.manager,
    lock = false,
  ): Promise<OrderRow | null> {
    const rows: OrderRow[] = await manager.query(
      `SELECT ${SELECT} FROM orders WHERE id = $1 AND account_id = $2 AND tenant_id = $3 AND livemode = $4
       ${lock ? 'FOR UPDATE' : ''}`,
      [orderId, accountId, scope.tenantId, scope.livemode],
    );
    return rows[0] ?? null;
  }

  /** Account-style list: newest first by (created_at, placement sequence), filters, offset paging. */
  listForAccount(scope: Scope, accountId: string, filter: AccountOrderFilter): Promise<OrderRow[]> {
    const where = ['tenant_id = $1', 'livemode = $2', 'account_id = $3'];
    const values: unknown[] = [scope.tenantId, scope.livemode, accountId];
    const add = (clause: string, value: unknown) => {
      values.push(value);
      where.push(clause.replace('?', `$${values.length}`));
    };
    if (filter.status) {
      add('status = ?', filter.status);
    }
    if (filter.symbol) {
      add('upper(symbol) = upper(?)', filter.symbol);
    }
    if (filter.side) {
      add('side = ?', filter.side);
    }
    if (filter.updatedSince) {
      add('updated_at >= ?', filter.updatedSince);
    }
    values.push(filter.limit, filter.offset);
    return this.dataSource.query(
      `SELECT ${SELECT} FROM orders WHERE ${where.join(' AND ')}
       ORDER BY created_at DESC, seq DESC LIMIT $${values.length - 1} OFFSET $${values.length}`,
      values,
    );
  }

  /** Envelope list: newest first, a page after (older) or before (newer) a cursor order. */
  async pageForAccount(
    scope: Scope,
    accountId: string,
    limit: number,
    cursor: { after?: OrderRow; before?: OrderRow },
  ): Promise<OrderRow[]> {
    const values: unknown[] = [scope.tenantId, scope.livemode, accountId];
    let where = '';
    let order = 'DESC';
    if (cursor.after) {
      values.push(cursor.after.created_at, cursor.after.id);
      where = `AND (created_at, seq) < ($4, (SELECT seq FROM orders WHERE id = $5))`;
    } else if (cursor.before) {
      values.push(cursor.before.created_at, cursor.before.id);
      where = `AND (created_at, seq) > ($4, (SELECT seq FROM orders WHERE id = $5))`;
      order = 'ASC';
    }
    values.push(limit + 1);
    const rows: OrderRow[] = await this.dataSource.query(
      `SELECT ${SELECT} FROM orders WHERE tenant_id = $1 AND livemode = $2 AND account_id = $3 ${where}
       ORDER BY created_at ${order}, seq ${order} LIMIT $${values.length}`,
      values,
    );
    return cursor.before ? rows.reverse() : rows;
  }

  /**
   * Open orders of one asset, unlocked: what a tick or a session event looks at before it knows what
   * will change. With `tick`, the orders that quote certainly leaves as they are stay in the database
   * (TICK_UNCHANGED); the engine still decides every order it reads.
   */
  openOfAsset(manager: EntityManager, scope: Scope, assetId: string, tick?: TickQuote): Promise<OrderRow[]> {
    if (!tick) {
      return manager.query(
        `SELECT ${SELECT} FROM orders WHERE tenant_id = $1 AND livemode = $2 AND asset_id = $3 AND ${OPEN}
         ORDER BY created_at, seq`,
        [scope.tenantId, scope.livemode, assetId],
      );
    }
    return manager.query(
      `SELECT ${SELECT} FROM orders WHERE tenant_id = $1 AND livemode = $2 AND asset_id = $3 AND ${OPEN}
         AND NOT ${TICK_UNCHANGED}
       ORDER BY created_at, seq`,
      [scope.tenantId, scope.livemode, assetId, tick.phase, tick.last, tick.bid, tick.ask],
    );
  }

  /**
   * These orders, locked and re-read, while still open; rows another engine holds are skipped (it is
   * evaluating them), so no two engines ever change one order at once.
   */
  lockOpen(manager: EntityManager, ids: string[]): Promise<OrderRow[]> {
    return manager.query(
      `SELECT ${SELECT} FROM orders WHERE id = ANY($1) AND ${OPEN} ORDER BY created_at, seq FOR UPDATE SKIP LOCKED`,
      [ids],
    );
  }

  /** The open orders of an account, locked (waiting for an engine evaluating one of them). */
  openOfAccount(manager: EntityManager, scope: Scope, accountId: string): Promise<OrderRow[]> {
    return manager.query(
      `SELECT ${SELECT} FROM orders WHERE tenant_id = $1 AND livemode = $2 AND account_id = $3 AND ${OPEN}
        ORDER BY created_at, seq FOR UPDATE`,
      [scope.tenantId, scope.livemode, accountId],
    );
  }

  /** Up to `limit` open orders of an asset, oldest first, locked (a corporate action cancels them). */
  lockOpenOfAsset(manager: EntityManager, scope: Scope, assetId: string, limit: number): Promise<OrderRow[]> {
    return manager.query(
      `SELECT ${SELECT} FROM orders WHERE tenant_id = $1 AND livemode = $2 AND asset_id = $3 AND ${OPEN}
        ORDER BY created_at, seq LIMIT $4 FOR UPDATE`,
      [scope.tenantId, scope.livemode, assetId, limit],
    );
  }

  /**
   * A symbol change: the asset's open orders show its new symbol (past orders keep the one they
   * were placed with). Answers how many it renamed.
   */
  async renameOpenOfAsset(
    manager: EntityManager,
    scope: Scope,
    assetId: string,
    symbol: string,
    at: Date,
  ): Promise<number> {
    const [, renamed]: [unknown, number] = await manager.query(
      `UPDATE orders SET symbol = $4, updated_at = $5
        WHERE tenant_id = $1 AND livemode = $2 AND asset_id = $3 AND ${OPEN} AND symbol <> $4`,
      [scope.tenantId, scope.livemode, assetId, symbol, at],
    );
    return renamed;
  }

  /** The assets of a market with open orders (session events evaluate each). */
  async openAssetsOfMarket(manager: EntityManager, scope: Scope, market: string): Promise<string[]> {
    const rows: Array<{ asset_id: string }> = await manager.query(
      `SELECT DISTINCT asset_id FROM orders WHERE tenant_id = $1 AND livemode = $2 AND market = $3 AND ${OPEN}`,
      [scope.tenantId, scope.livemode, market],
    );
    return rows.map((r) => r.asset_id);
  }

  /** How many orders of an account are still open (an account with any cannot close). */
  async countOpenOfAccount(manager: EntityManager, scope: Scope, accountId: string): Promise<number> {
    const rows: Array<{ n: number }> = await manager.query(
      `SELECT count(*)::int AS n FROM orders WHERE tenant_id = $1 AND livemode = $2 AND account_id = $3 AND ${OPEN}`,
      [scope.tenantId, scope.livemode, accountId],
    );
    return rows[0].n;
  }

  /** Every (tenant, mode, asset) with open orders: what the engine's periodic sweep ticks. */
  openAssets(): Promise<Array<{ tenant_id: string; livemode: boolean; asset_id: string }>> {
    return this.dataSource.query(`SELECT DISTINCT tenant_id, livemode, asset_id FROM orders WHERE ${OPEN}`);
  }

  async update(manager: EntityManager, id: string, change: OrderChange): Promise<void> {
    const columns: Record<keyof OrderChange, string> = {
      status: 'status',
      filledQuantity: 'filled_quantity',
      filledNotional: 'filled_notional',
      fillCount: 'fill_count',
      priceDecimals: 'price_decimals',
      commission: 'commission',
      holdUsed: 'hold_used',
      waterMark: 'water_mark',
      triggered: 'triggered',
      rejectReason: 'reject_reason',
      cancelReason: 'cancel_reason',
      filledAt: 'filled_at',
      canceledAt: 'canceled_at',
      updatedAt: 'updated_at',
    };
    const keys = (Object.keys(change) as Array<keyof OrderChange>).filter((k) => change[k] !== undefined);
    await manager.query(
      `UPDATE orders SET ${keys.map((k, i) => `"${columns[k]}" = $${i + 2}`).join(', ')} WHERE id = $1`,
      [id, ...keys.map((k) => change[k])],
    );
  }

  /**
   * Water marks and stop triggers of several orders in one statement (an engine tick moves those of
   * every trailing stop of an asset); updated_at stays, as no fill or status change happened.
   */
  async mark(manager: EntityManager, marks: OrderMark[]): Promise<void> {
    if (marks.length === 0) {
      return;
    }
    await manager.query(
      `UPDATE orders o SET water_mark = coalesce(m.water_mark, o.water_mark), triggered = coalesce(m.triggered, o.triggered)
         FROM unnest($1::text[], $2::numeric[], $3::boolean[]) AS m(id, water_mark, triggered)
        WHERE o.id = m.id`,
      [marks.map((m) => m.id), marks.map((m) => m.waterMark ?? null), marks.map((m) => m.triggered ?? null)],
    );
  }
}
