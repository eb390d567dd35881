import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { ExecutionRow, OrderSide } from 'src/modules/trading/order-types';
import type { Scope } from 'src/modules/trading/orders.repository';

/** An execution joined to its order, as confirmations and statements read it (numerics as text). */
export interface ExecutionRecordRow {
  id: string;
  order_id: string;
  symbol: string;
  side: OrderSide;
  asset_id: string;
  quantity: string;
  price: string;
  gross_amount: string;
  accrued_interest: string;
  commission: string;
  currency: string;
  /** The bond order's settlement date (YYYY-MM-DD), else null. */
  settlement_date: string | null;
  created_at: Date;
}

/** The executions of orders: every query of the executions table lives here. */
@Injectable()
export class ExecutionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(manager: EntityManager, scope: Scope, e: ExecutionRow): Promise<void> {
    await manager.query(
      `INSERT INTO executions (id, order_id, sequence, tenant_id, livemode, account_id, asset_id, symbol, side,
         quantity, price, gross_amount, accrued_interest, commission, net_amount, price_source, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)`,
      [
        e.id,
        e.order_id,
        e.sequence,
        scope.tenantId,
        scope.livemode,
        e.account_id,
        e.asset_id,
        e.symbol,
        e.side,
        e.quantity,
        e.price,
        e.gross_amount,
        e.accrued_interest,
        e.commission,
        e.net_amount,
        e.price_source,
        e.created_at,
      ],
    );
  }

  /** The executions of one order, in fill order. */
  ofOrder(orderId: string): Promise<ExecutionRow[]> {
    return this.dataSource.query(
      `SELECT id, order_id, sequence, account_id, asset_id, symbol, side, trim_scale(quantity)::text AS quantity,
         trim_scale(price)::text AS price, trim_scale(gross_amount)::text AS gross_amount,
         trim_scale(accrued_interest)::text AS accrued_interest, trim_scale(commission)::text AS commission,
         trim_scale(net_amount)::text AS net_amount, price_source, created_at
       FROM executions WHERE order_id = $1 ORDER BY sequence`,
      [orderId],
    );
  }

  /** An account's executions in [from, to), oldest first, with their order's currency and settlement date. */
  ofAccountBetween(scope: Scope, accountId: string, from: Date, to: Date): Promise<ExecutionRecordRow[]> {
    return this.dataSource.query(
      `SELECT e.id, e.order_id, e.symbol, e.side, e.asset_id, trim_scale(e.quantity)::text AS quantity,
              trim_scale(e.price)::text AS price, e.gross_amount::text AS gross_amount,
              e.accrued_interest::text AS accrued_interest, e.commission::text AS commission, o.currency,
              to_char(o.settlement_date, 'YYYY-MM-DD') AS settlement_date, e.created_at
         FROM executions e JOIN orders o ON o.id = e.order_id
        WHERE e.account_id = $1 AND e.tenant_id = $2 AND e.livemode = $3
          AND e.created_at >= $4 AND e.created_at < $5
        ORDER BY e.created_at, e.order_id, e.sequence`,
      [accountId, scope.tenantId, scope.livemode, from, to],
    );
  }
}
