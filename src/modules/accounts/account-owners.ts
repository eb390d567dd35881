import { Injectable, Module } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

/**
 * Whose an account is, for processes without the API's accounts module (the worker's document
 * jobs): one read of the account's investor, scoped to the tenant and mode.
 */
@Injectable()
export class AccountOwners {
  constructor(private readonly dataSource: DataSource) {}

  /** The investor of the account, or null when no such account exists in this scope. */
  async investorOf(
    scope: { tenantId: string; livemode: boolean },
    accountId: string,
  ): Promise<string | null> {
    const rows: Array<{ investor_id: string }> = await this.dataSource.query(
      `SELECT investor_id FROM investment_accounts WHERE id = $1 AND tenant_id = $2 AND livemode = $3`,
      [accountId, scope.tenantId, scope.livemode],
    );
    return rows[0]?.investor_id ?? null;
  }

  /**
   * Which of these accounts exist in this scope with no investor (the firm account), read in the
   * caller's transaction; an account not found is not taken for one.
   */
  async withoutInvestor(
    manager: EntityManager,
    scope: { tenantId: string; livemode: boolean },
    accountIds: string[],
  ): Promise<Set<string>> {
    const rows: Array<{ id: string }> = await manager.query(
      `SELECT id::text AS id FROM investment_accounts
        WHERE id = ANY($1::uuid[]) AND tenant_id = $2 AND livemode = $3 AND investor_id IS NULL`,
      [accountIds, scope.tenantId, scope.livemode],
    );
    return new Set(rows.map((r) => r.id));
  }
}

/** AccountOwners alone, importable by the worker process. */
@Module({ providers: [AccountOwners], exports: [AccountOwners] })
export class AccountOwnersModule {}
