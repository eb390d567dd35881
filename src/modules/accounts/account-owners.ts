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
   * True when the account exists in this scope with no investor (the firm account), read in the
   * caller's transaction; an account not found is not taken for one.
   */
  async hasNoInvestor(
    manager: EntityManager,
    scope: { tenantId: string; livemode: boolean },
    accountId: string,
  ): Promise<boolean> {
    const rows: Array<{ investor_id: string | null }> = await manager.query(
      `SELECT investor_id FROM investment_accounts WHERE id = $1 AND tenant_id = $2 AND livemode = $3`,
      [accountId, scope.tenantId, scope.livemode],
    );
    return rows.length > 0 && rows[0].investor_id === null;
  }
}

/** AccountOwners alone, importable by the worker process. */
@Module({ providers: [AccountOwners], exports: [AccountOwners] })
export class AccountOwnersModule {}
