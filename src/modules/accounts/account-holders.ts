import { Injectable, Module } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** Who holds an account, as money work outside a request needs it. */
export interface AccountHolder {
  accountId: string;
  /** Null for an account without an investor (the firm account). */
  investorId: string | null;
  /** Alpha-2 country of tax residence (withholding on dividends). */
  taxResidence: string | null;
}

/**
 * Account holders in bulk for jobs (corporate actions): one query per batch of accounts, through
 * the caller's transaction.
 */
@Injectable()
export class AccountHolders {
  async of(manager: EntityManager, accountIds: string[]): Promise<Map<string, AccountHolder>> {
    const rows: Array<{ id: string; investor_id: string | null; residence: string | null }> =
      accountIds.length === 0
        ? []
        : await manager.query(
            `SELECT id, investor_id, identity->>'country_of_tax_residence' AS residence
               FROM investment_accounts WHERE id = ANY($1::uuid[])`,
            [accountIds],
          );
    return new Map(
      rows.map((r) => [r.id, { accountId: r.id, investorId: r.investor_id, taxResidence: r.residence }]),
    );
  }
}

/** AccountHolders alone, for processes without the accounts routes (the worker). */
@Module({ providers: [AccountHolders], exports: [AccountHolders] })
export class AccountHoldersModule {}
