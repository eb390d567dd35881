import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { PlanDocument } from 'src/modules/wealth/plan-document';
import type { PlanVersion } from 'src/modules/wealth/plan-view';

interface PlanRow {
  id: string;
  account_id: string;
  version: number;
  status: 'active' | 'archived';
  document: PlanDocument;
  created_at: Date;
  written_at: Date;
}

const toVersion = (row: PlanRow): PlanVersion => ({
  id: row.id,
  accountId: row.account_id,
  version: row.version,
  status: row.status,
  document: row.document,
  createdAt: row.created_at,
  writtenAt: row.written_at,
});

/** Every query on financial_plans and financial_plan_versions; plans are found by their account. */
@Injectable()
export class FinancialPlanRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The current version of the account's plan, or null. `lock`: held until the transaction ends. */
  async current(accountId: string, manager?: EntityManager, lock = false): Promise<PlanVersion | null> {
    const rows: PlanRow[] = await (manager ?? this.dataSource).query(
      `SELECT id, account_id, version, status, document, created_at, updated_at AS written_at
         FROM financial_plans WHERE account_id = $1${lock ? ' FOR UPDATE' : ''}`,
      [accountId],
    );
    return rows.length > 0 ? toVersion(rows[0]) : null;
  }

  /** A stored version of the account's plan, or null. */
  async version(accountId: string, version: number): Promise<PlanVersion | null> {
    const rows: PlanRow[] = await this.dataSource.query(
      `SELECT p.id, p.account_id, v.version, v.status, v.document, p.created_at, v.written_at
         FROM financial_plans p
         JOIN financial_plan_versions v ON v.financial_plan_id = p.id
        WHERE p.account_id = $1 AND v.version = $2`,
      [accountId, version],
    );
    return rows.length > 0 ? toVersion(rows[0]) : null;
  }

  /**
   * Creates the account's plan at version 0 unless it has one, so that the caller can lock it:
   * concurrent first writes queue on the same row instead of failing on the unique account.
   */
  async ensure(
    manager: EntityManager,
    plan: {
      id: string;
      tenantId: string;
      livemode: boolean;
      accountId: string;
      document: PlanDocument;
      now: Date;
    },
  ): Promise<void> {
    await manager.query(
      `INSERT INTO financial_plans (id, tenant_id, livemode, account_id, version, status, document, created_at, updated_at)
       VALUES ($1, $2, $3, $4, 0, 'active', $5, $6, $6)
       ON CONFLICT (account_id) DO NOTHING`,
      [plan.id, plan.tenantId, plan.livemode, plan.accountId, JSON.stringify(plan.document), plan.now],
    );
  }

  /** Writes the next version: the plan row moves to it and the version is kept. */
  async write(manager: EntityManager, next: PlanVersion): Promise<void> {
    const document = JSON.stringify(next.document);
    await manager.query(
      `UPDATE financial_plans SET version = $2, status = $3, document = $4, updated_at = $5,
              created_at = CASE WHEN $2 = 1 THEN $5 ELSE created_at END
        WHERE id = $1`,
      [next.id, next.version, next.status, document, next.writtenAt],
    );
    await manager.query(
      `INSERT INTO financial_plan_versions (financial_plan_id, version, status, document, written_at)
       VALUES ($1, $2, $3, $4, $5)`,
      [next.id, next.version, next.status, document, next.writtenAt],
    );
  }
}
