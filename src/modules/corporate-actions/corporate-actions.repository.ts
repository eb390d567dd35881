import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type {
  CorporateActionRow,
  CorporateActionStatus,
  CorporateActionTerms,
  CorporateActionType,
} from 'src/modules/corporate-actions/corporate-action.types';

export interface Scope {
  tenantId: string;
  livemode: boolean;
}

/** Columns of an announcement as one tenant and mode sees it ($1 tenant, $2 livemode). */
const SELECT = `a.id, a.tenant_id, a.type, a.canceled_at, a.asset_id, a.symbol, a.cusip, a.currency, a.market,
  a.declaration_date::text AS declaration_date, a.ex_date::text AS ex_date, a.record_date::text AS record_date,
  a.payable_date::text AS payable_date, trim_scale(a.cash_rate)::text AS cash_rate,
  trim_scale(a.old_rate)::text AS old_rate, trim_scale(a.new_rate)::text AS new_rate, a.new_symbol,
  a.new_asset_id, a.description, a.metadata, a.created_at, a.updated_at, r.processed_at,
  (r.action_id IS NOT NULL) AS started
  FROM corporate_actions a
  LEFT JOIN corporate_action_runs r ON r.action_id = a.id AND r.tenant_id = $1 AND r.livemode = $2`;

/** Market-wide announcements, and the tenant's own in its test mode. */
const VISIBLE = `(a.tenant_id IS NULL OR (a.tenant_id = $1 AND $2 = false))`;

export interface NewAction extends CorporateActionTerms {
  id: string;
  tenantId: string | null;
  assetId: string;
  symbol: string;
  cusip: string | null;
  currency: string;
  market: string;
  description: string;
  at: Date;
  /** 04:00 of the ex date in the market's time zone (a new tenant's start job is due then). */
  appliesAt: Date;
}

export interface ActionFilters {
  symbol?: string;
  type?: CorporateActionType;
  status?: CorporateActionStatus;
  exDateGte?: string;
  exDateLte?: string;
}

@Injectable()
export class CorporateActionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(manager: EntityManager, a: NewAction): Promise<void> {
    await manager.query(
      `INSERT INTO corporate_actions (id, tenant_id, type, asset_id, symbol, cusip, currency, market,
         declaration_date, ex_date, record_date, payable_date, cash_rate, old_rate, new_rate, new_symbol,
         new_asset_id, description, metadata, created_at, updated_at, applies_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $20, $21)`,
      [
        a.id,
        a.tenantId,
        a.type,
        a.assetId,
        a.symbol,
        a.cusip,
        a.currency,
        a.market,
        a.declaration_date,
        a.ex_date,
        a.record_date,
        a.payable_date,
        a.cash_rate,
        a.old_rate,
        a.new_rate,
        a.new_symbol,
        a.new_asset_id,
        a.description,
        JSON.stringify(a.metadata),
        a.at,
        a.appliesAt,
      ],
    );
  }

  /** Replaces the terms of an announcement nobody has started processing (false otherwise). */
  async correct(
    manager: EntityManager,
    id: string,
    t: CorporateActionTerms,
    description: string,
    appliesAt: Date,
  ): Promise<boolean> {
    const [, changed]: [unknown, number] = await manager.query(
      `UPDATE corporate_actions SET type = $2, declaration_date = $3, ex_date = $4, record_date = $5,
         payable_date = $6, cash_rate = $7, old_rate = $8, new_rate = $9, new_symbol = $10, new_asset_id = $11,
         description = $12, metadata = $13, applies_at = $14, updated_at = now()
        WHERE id = $1 AND canceled_at IS NULL
          AND NOT EXISTS (SELECT 1 FROM corporate_action_runs r WHERE r.action_id = $1)`,
      [
        id,
        t.type,
        t.declaration_date,
        t.ex_date,
        t.record_date,
        t.payable_date,
        t.cash_rate,
        t.old_rate,
        t.new_rate,
        t.new_symbol,
        t.new_asset_id,
        description,
        JSON.stringify(t.metadata),
        appliesAt,
      ],
    );
    return changed > 0;
  }

  /** Withdraws an announcement nobody has started processing (false otherwise). */
  async cancel(manager: EntityManager, id: string, at: Date): Promise<boolean> {
    const [, changed]: [unknown, number] = await manager.query(
      `UPDATE corporate_actions SET canceled_at = $2, updated_at = now()
        WHERE id = $1 AND canceled_at IS NULL
          AND NOT EXISTS (SELECT 1 FROM corporate_action_runs r WHERE r.action_id = $1)`,
      [id, at],
    );
    return changed > 0;
  }

  /** An announcement as a tenant and mode sees it; `lock` takes the row FOR UPDATE. */
  async find(
    scope: Scope,
    id: string,
    manager: EntityManager = this.dataSource.manager,
    lock = false,
  ): Promise<CorporateActionRow | null> {
    const rows: CorporateActionRow[] = await manager.query(
      `SELECT ${SELECT} WHERE a.id = $3 AND ${VISIBLE}${lock ? ' FOR UPDATE OF a' : ''}`,
      [scope.tenantId, scope.livemode, id],
    );
    return rows[0] ?? null;
  }

  /** Newest ex_date first (then id); `after`/`before` are cursors; answers up to limit + 1 rows. */
  async page(
    scope: Scope,
    filters: ActionFilters,
    limit: number,
    cursor: { row: CorporateActionRow; direction: 'after' | 'before' } | null,
  ): Promise<CorporateActionRow[]> {
    const values: unknown[] = [scope.tenantId, scope.livemode];
    const where = [VISIBLE];
    const add = (sql: (p: string) => string, value: unknown) => {
      values.push(value);
      where.push(sql(`$${values.length}`));
    };
    if (filters.symbol) {
      add((p) => `upper(a.symbol) = upper(${p})`, filters.symbol);
    }
    if (filters.type) {
      add((p) => `a.type = ${p}`, filters.type);
    }
    if (filters.exDateGte) {
      add((p) => `a.ex_date >= ${p}::date`, filters.exDateGte);
    }
    if (filters.exDateLte) {
      add((p) => `a.ex_date <= ${p}::date`, filters.exDateLte);
    }
    if (filters.status === 'canceled') {
      where.push('a.canceled_at IS NOT NULL');
    }
    if (filters.status === 'processed') {
      where.push('a.canceled_at IS NULL AND r.processed_at IS NOT NULL');
    }
    if (filters.status === 'announced') {
      where.push('a.canceled_at IS NULL AND r.processed_at IS NULL');
    }
    const before = cursor?.direction === 'before';
    if (cursor) {
      values.push(cursor.row.ex_date, cursor.row.id);
      const n = values.length;
      where.push(`(a.ex_date, a.id) ${before ? '>' : '<'} ($${n - 1}::date, $${n})`);
    }
    values.push(limit + 1);
    const order = before ? 'a.ex_date ASC, a.id ASC' : 'a.ex_date DESC, a.id DESC';
    const rows: CorporateActionRow[] = await this.dataSource.query(
      `SELECT ${SELECT} WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT $${values.length}`,
      values,
    );
    return before ? rows.reverse() : rows;
  }

  /** The tenant and mode's processing has begun (idempotent). */
  async start(manager: EntityManager, scope: Scope, actionId: string): Promise<void> {
    await manager.query(
      `INSERT INTO corporate_action_runs (action_id, tenant_id, livemode) VALUES ($1, $2, $3)
       ON CONFLICT DO NOTHING`,
      [actionId, scope.tenantId, scope.livemode],
    );
  }

  /** Marks the tenant and mode's processing done; false when it already was. */
  async finish(manager: EntityManager, scope: Scope, actionId: string, at: Date): Promise<boolean> {
    const [, changed]: [unknown, number] = await manager.query(
      `UPDATE corporate_action_runs SET processed_at = $4
        WHERE action_id = $1 AND tenant_id = $2 AND livemode = $3 AND processed_at IS NULL`,
      [actionId, scope.tenantId, scope.livemode, at],
    );
    return changed > 0;
  }

  /** Every tenant and mode a market-wide announcement reaches. */
  async everyScope(manager: EntityManager): Promise<Scope[]> {
    const rows: Array<{ id: string }> = await manager.query(`SELECT id FROM tenants ORDER BY id`);
    return rows.flatMap((r) => [
      { tenantId: r.id, livemode: false },
      { tenantId: r.id, livemode: true },
    ]);
  }
}
