import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { SweepScope } from 'src/modules/cash-sweep/apr-tiers.repository';

export type EnrollmentStatus = 'enrolled' | 'opted_out';

export interface EnrollmentRow {
  account_id: string;
  currency: string;
  tenant_id: string;
  livemode: boolean;
  investor_id: string;
  status: EnrollmentStatus;
  tier_id: string | null;
  accrual_start: string;
  created_at: Date;
  updated_at: Date;
}

/** An enrolled account with its tier's current terms: what one day of accrual needs. */
export interface AccruingAccount {
  account_id: string;
  investor_id: string;
  tier_id: string;
  tier_name: string;
  account_rate_bps: number;
  correspondent_rate_bps: number;
}

const COLUMNS =
  'account_id, currency, tenant_id, livemode, investor_id, status, tier_id, ' +
  "to_char(accrual_start, 'YYYY-MM-DD') AS accrual_start, created_at, updated_at";

/** Each account's place in the cash program, one row per account and currency. */
@Injectable()
export class EnrollmentsRepository {
  /** Inserts unless the account already has a row for the currency; true when inserted. */
  async insert(manager: EntityManager, row: EnrollmentRow): Promise<boolean> {
    const inserted: unknown[] = await manager.query(
      `INSERT INTO cash_sweep_enrollments (account_id, currency, tenant_id, livemode, investor_id, status, tier_id,
                                           accrual_start, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       ON CONFLICT (account_id, currency) DO NOTHING RETURNING account_id`,
      [
        row.account_id,
        row.currency,
        row.tenant_id,
        row.livemode,
        row.investor_id,
        row.status,
        row.tier_id,
        row.accrual_start,
        row.created_at,
        row.updated_at,
      ],
    );
    return inserted.length === 1;
  }

  async find(
    manager: EntityManager,
    accountId: string,
    currency: string,
    lock = false,
  ): Promise<EnrollmentRow | null> {
    const rows: EnrollmentRow[] = await manager.query(
      `SELECT ${COLUMNS} FROM cash_sweep_enrollments WHERE account_id = $1 AND currency = $2
       ${lock ? 'FOR UPDATE' : ''}`,
      [accountId, currency],
    );
    return rows[0] ?? null;
  }

  async change(
    manager: EntityManager,
    accountId: string,
    currency: string,
    change: { status: EnrollmentStatus; tierId: string | null; accrualStart?: string },
    now: Date,
  ): Promise<void> {
    await manager.query(
      `UPDATE cash_sweep_enrollments
          SET status = $3, tier_id = $4, accrual_start = COALESCE($5::date, accrual_start), updated_at = $6
        WHERE account_id = $1 AND currency = $2`,
      [accountId, currency, change.status, change.tierId, change.accrualStart ?? null, now],
    );
  }

  /** Moves every account of a retiring tier to another tier; how many moved. */
  async moveTier(manager: EntityManager, fromTierId: string, toTierId: string, now: Date): Promise<number> {
    const [, count]: [unknown, number] = await manager.query(
      `UPDATE cash_sweep_enrollments SET tier_id = $2, updated_at = $3 WHERE tier_id = $1`,
      [fromTierId, toTierId, now],
    );
    return count;
  }

  async countInTier(manager: EntityManager, tierId: string): Promise<number> {
    const rows: Array<{ n: string }> = await manager.query(
      `SELECT count(*) AS n FROM cash_sweep_enrollments WHERE tier_id = $1`,
      [tierId],
    );
    return Number(rows[0].n);
  }

  /** Accounts that accrue on `date`: enrolled, with the enrollment started on or before it. */
  async accruingOn(
    manager: EntityManager,
    scope: SweepScope,
    currency: string,
    date: string,
  ): Promise<AccruingAccount[]> {
    return manager.query(
      `SELECT e.account_id, e.investor_id, t.id AS tier_id, t.name AS tier_name, t.account_rate_bps,
              t.correspondent_rate_bps
         FROM cash_sweep_enrollments e JOIN cash_sweep_tiers t ON t.id = e.tier_id
        WHERE e.tenant_id = $1 AND e.livemode = $2 AND e.currency = $3 AND e.status = 'enrolled'
          AND e.accrual_start <= $4::date
        ORDER BY e.account_id`,
      [scope.tenantId, scope.livemode, currency, date],
    );
  }

  /** Currencies with enrollments in the scope, and the earliest accrual start of each. */
  async currencies(
    manager: EntityManager,
    scope: SweepScope,
  ): Promise<Array<{ currency: string; first: string }>> {
    return manager.query(
      `SELECT currency, to_char(min(accrual_start), 'YYYY-MM-DD') AS first FROM cash_sweep_enrollments
        WHERE tenant_id = $1 AND livemode = $2 AND status = 'enrolled' GROUP BY currency ORDER BY currency`,
      [scope.tenantId, scope.livemode],
    );
  }

  /** Enrolled accounts per currency. */
  async enrolledCounts(manager: EntityManager, scope: SweepScope): Promise<Map<string, number>> {
    const rows: Array<{ currency: string; n: string }> = await manager.query(
      `SELECT currency, count(*) AS n FROM cash_sweep_enrollments
        WHERE tenant_id = $1 AND livemode = $2 AND status = 'enrolled' GROUP BY currency`,
      [scope.tenantId, scope.livemode],
    );
    return new Map(rows.map((r) => [r.currency, Number(r.n)]));
  }
}
