import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { newId } from 'src/core/ids/ids';

export interface SweepScope {
  tenantId: string;
  livemode: boolean;
}

export type TierStatus = 'active' | 'retired';

export interface TierRow {
  id: string;
  tenant_id: string;
  livemode: boolean;
  name: string;
  currency: string;
  account_rate_bps: number;
  correspondent_rate_bps: number;
  is_default: boolean;
  status: TierStatus;
  metadata: Record<string, string>;
  created_at: Date;
  updated_at: Date;
}

export type TierChange = Partial<
  Pick<TierRow, 'name' | 'account_rate_bps' | 'correspondent_rate_bps' | 'is_default' | 'status' | 'metadata'>
>;

/** The tier every account of a currency starts in, created on first use (docs/decisions.md, Cash sweep). */
export const STANDARD_TIER = { name: 'standard', account_rate_bps: 350, correspondent_rate_bps: 50 };

/** The most tiers one list answers (a tenant keeps a handful). */
export const MAX_TIERS_LISTED = 500;

const COLUMNS =
  'id, tenant_id, livemode, name, currency, account_rate_bps, correspondent_rate_bps, is_default, status, ' +
  'metadata, created_at, updated_at';

/** APR tiers: one row each, per tenant, mode and currency; at most one default per currency. */
@Injectable()
export class AprTiersRepository {
  async find(manager: EntityManager, scope: SweepScope, id: string, lock = false): Promise<TierRow | null> {
    const rows: TierRow[] = await manager.query(
      `SELECT ${COLUMNS} FROM cash_sweep_tiers WHERE id = $1 AND tenant_id = $2 AND livemode = $3
       ${lock ? 'FOR UPDATE' : ''}`,
      [id, scope.tenantId, scope.livemode],
    );
    return rows[0] ?? null;
  }

  /** The currency's default tier, creating `standard` when the tenant has none yet. */
  async ensureDefault(
    manager: EntityManager,
    scope: SweepScope,
    currency: string,
    now: Date,
  ): Promise<TierRow> {
    const existing = await this.findDefault(manager, scope, currency);
    if (existing) {
      return existing;
    }
    // No conflict target: a concurrent first opening's insert may meet this one on the active-name
    // index as well as on the default one, and a conflict on an index not named would be an error.
    await manager.query(
      `INSERT INTO cash_sweep_tiers (id, tenant_id, livemode, name, currency, account_rate_bps,
                                     correspondent_rate_bps, is_default, status, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, true, 'active', $8, $8)
       ON CONFLICT DO NOTHING`,
      [
        newId('aprTier'),
        scope.tenantId,
        scope.livemode,
        STANDARD_TIER.name,
        currency,
        STANDARD_TIER.account_rate_bps,
        STANDARD_TIER.correspondent_rate_bps,
        now,
      ],
    );
    const made = await this.findDefault(manager, scope, currency);
    if (!made) {
      // Only an active tier already holding the standard tier's name, without a default, could
      // keep the default from being made; tiers are created after the default, so none does.
      throw new Error(
        `No default cash sweep tier for ${scope.tenantId} in ${currency}, and none could be made.`,
      );
    }
    return made;
  }

  async findDefault(manager: EntityManager, scope: SweepScope, currency: string): Promise<TierRow | null> {
    const rows: TierRow[] = await manager.query(
      `SELECT ${COLUMNS} FROM cash_sweep_tiers
        WHERE tenant_id = $1 AND livemode = $2 AND currency = $3 AND is_default`,
      [scope.tenantId, scope.livemode, currency],
    );
    return rows[0] ?? null;
  }

  async insert(manager: EntityManager, row: TierRow): Promise<void> {
    await manager.query(
      `INSERT INTO cash_sweep_tiers (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
      [
        row.id,
        row.tenant_id,
        row.livemode,
        row.name,
        row.currency,
        row.account_rate_bps,
        row.correspondent_rate_bps,
        row.is_default,
        row.status,
        JSON.stringify(row.metadata),
        row.created_at,
        row.updated_at,
      ],
    );
  }

  /** Oldest first; optional currency and status filters. */
  async list(
    manager: EntityManager,
    scope: SweepScope,
    filter: { currency?: string; status?: TierStatus },
  ): Promise<{ rows: TierRow[]; hasMore: boolean }> {
    const rows: TierRow[] = await manager.query(
      `SELECT ${COLUMNS} FROM cash_sweep_tiers
        WHERE tenant_id = $1 AND livemode = $2 AND ($3::text IS NULL OR currency = $3)
          AND ($4::text IS NULL OR status = $4)
        ORDER BY created_at, id LIMIT $5`,
      [scope.tenantId, scope.livemode, filter.currency ?? null, filter.status ?? null, MAX_TIERS_LISTED + 1],
    );
    return { rows: rows.slice(0, MAX_TIERS_LISTED), hasMore: rows.length > MAX_TIERS_LISTED };
  }

  async update(manager: EntityManager, id: string, change: TierChange, now: Date): Promise<void> {
    const sets: string[] = [];
    const values: unknown[] = [id, now];
    for (const [column, value] of Object.entries(change)) {
      if (value !== undefined) {
        values.push(column === 'metadata' ? JSON.stringify(value) : value);
        sets.push(`${column} = $${values.length}`);
      }
    }
    await manager.query(
      `UPDATE cash_sweep_tiers SET ${[...sets, 'updated_at = $2'].join(', ')} WHERE id = $1`,
      values,
    );
  }

  /** Removes the default mark of a currency (before another tier takes it). */
  async clearDefault(manager: EntityManager, scope: SweepScope, currency: string, now: Date): Promise<void> {
    await manager.query(
      `UPDATE cash_sweep_tiers SET is_default = false, updated_at = $4
        WHERE tenant_id = $1 AND livemode = $2 AND currency = $3 AND is_default`,
      [scope.tenantId, scope.livemode, currency, now],
    );
  }

  /** Active tier of that name in the currency, other than `exceptId`. */
  async nameTaken(
    manager: EntityManager,
    scope: SweepScope,
    currency: string,
    name: string,
    exceptId?: string,
  ): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `SELECT 1 FROM cash_sweep_tiers
        WHERE tenant_id = $1 AND livemode = $2 AND currency = $3 AND lower(name) = lower($4)
          AND status = 'active' AND id IS DISTINCT FROM $5`,
      [scope.tenantId, scope.livemode, currency, name, exceptId ?? null],
    );
    return rows.length > 0;
  }
}

/** The unique index a failed write violated (PostgreSQL 23505), or null for any other failure. */
export function violatedUniqueIndex(err: unknown): string | null {
  const cause = (err as { driverError?: { code?: string; constraint?: string } }).driverError;
  return cause?.code === '23505' ? (cause.constraint ?? null) : null;
}
