import { Injectable } from '@nestjs/common';
import { isUUID } from 'class-validator';
import type { EntityManager } from 'typeorm';
import type { CursorPage, CursorPageQuery } from 'src/core/http/pagination';
import { assertInvestorVisible } from 'src/core/auth/access.guard';
import type { Principal } from 'src/core/auth/principal';
import type { ReadBatch } from 'src/core/database/read-batch';
import { ServiceError } from 'src/core/errors/service-error';
import { AccountNotActiveError } from 'src/modules/accounts/account-errors';
import { isIdOf } from 'src/core/ids/ids';
import { AccountEquity } from 'src/modules/accounts/account-equity';
import { AccountRecord, toAccountRecord } from 'src/modules/accounts/account-record';
import {
  AccountFilter,
  AccountKey,
  AccountsRepository,
  AccountSummary,
  TradingAccount,
} from 'src/modules/accounts/accounts.repository';
import type { AccountAgreementEntity } from 'src/modules/accounts/entities/account-agreement.entity';
import type { InvestmentAccountEntity } from 'src/modules/accounts/entities/investment-account.entity';

export type { AccountFilter, AccountSummary, TradingAccount };

export interface LookupOptions {
  /**
   * Lock the row until the caller's transaction ends (needs `manager`): true for a change of the
   * account; 'share' to keep its status as read while moving money (other readers go on).
   */
  lock?: boolean | 'share';
}

/** An investor's account (every account but the tenant's firm account): its investor is known. */
export type InvestorAccount = InvestmentAccountEntity & { investor_id: string };

/**
 * Reading investment accounts, always scoped to the caller: tenant, mode (test/live) and, for
 * an investor-scoped key, its investor. Anything outside that scope answers 404. The trading
 * and wallet modules call `requireActiveAccount` / `requireActiveInvestorAccount`.
 */
@Injectable()
export class AccountsService {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly equity: AccountEquity,
  ) {}

  /** The account by id, or 404 SVC-404-001 when the caller may not see it. */
  async findAccountForPrincipal(
    principal: Principal,
    accountId: string,
    manager?: EntityManager,
    options: LookupOptions = {},
  ): Promise<InvestmentAccountEntity> {
    const account = isUUID(accountId)
      ? await this.lookup(principal, { id: accountId }, manager, options)
      : null;
    if (!account) {
      throw ServiceError.notFound('account', accountId);
    }
    return account;
  }

  /** The account of an investor (inv_...), or 404 SVC-404-001 naming the investor. */
  async findInvestorAccount(
    principal: Principal,
    investorId: string,
    manager?: EntityManager,
    options: LookupOptions = {},
  ): Promise<InvestorAccount> {
    assertInvestorVisible(principal, investorId);
    const account = isIdOf('investor', investorId)
      ? await this.lookup(principal, { investorId }, manager, options)
      : null;
    if (!account) {
      throw ServiceError.notFound('investor', investorId);
    }
    return account as InvestorAccount;
  }

  /**
   * For trading and money movement: the account when ACTIVE; 404 when not visible; otherwise
   * 422 SVC-422-001 (param account_id). Pass the transaction's manager with `lock` to hold the
   * row so a concurrent suspension or closure waits for the caller's commit.
   */
  async requireActiveAccount(
    principal: Principal,
    accountId: string,
    manager?: EntityManager,
    options: LookupOptions = {},
  ): Promise<InvestmentAccountEntity> {
    const account = await this.findAccountForPrincipal(principal, accountId, manager, options);
    assertAccountActive(account, 'account_id');
    return account;
  }

  /** As requireActiveAccount, addressed by investor (routes under /investors/{investor_id}). */
  async requireActiveInvestorAccount(
    principal: Principal,
    investorId: string,
    manager?: EntityManager,
    options: LookupOptions = {},
  ): Promise<InvestorAccount> {
    const account = await this.findInvestorAccount(principal, investorId, manager, options);
    assertAccountActive(account, 'investor_id');
    return account;
  }

  /**
   * For money movement on the hot path: the account's id, investor, status and currency, read with
   * one plain query and held FOR SHARE until the caller's transaction ends (a suspension or closure
   * waits for it; other transfers do not). 404 SVC-404-001 outside the caller's scope.
   *
   * A read of the caller's batch (one round trip with its other reads): call the answer once the
   * batch ran in that transaction.
   */
  shareForMoneyMovementIn(
    batch: ReadBatch,
    principal: Principal,
    target: { accountId: string } | { investorId: string },
  ): () => AccountSummary {
    const byAccount = 'accountId' in target;
    const id = byAccount ? target.accountId : target.investorId;
    if (byAccount ? !isUUID(id) : (assertInvestorVisible(principal, id), !isIdOf('investor', id))) {
      throw ServiceError.notFound(byAccount ? 'account' : 'investor', id);
    }
    const read = this.accounts.shareForMoneyMovementIn(
      batch,
      principal,
      byAccount ? 'id' : 'investor_id',
      id,
    );
    return () => {
      const row = read.row();
      if (!row) {
        throw ServiceError.notFound(byAccount ? 'account' : 'investor', id);
      }
      return row;
    };
  }

  /**
   * For order placement on the hot path: what trading needs of an investor's account, a read of the
   * caller's batch (the transaction's first round trip), held FOR SHARE until the transaction ends.
   * 404 SVC-404-001 outside the caller's scope.
   */
  shareForTradingIn(batch: ReadBatch, principal: Principal, investorId: string): () => TradingAccount {
    assertInvestorVisible(principal, investorId);
    const read = isIdOf('investor', investorId)
      ? this.accounts.shareForTradingIn(batch, principal, investorId)
      : null;
    return () => {
      const row = read?.row();
      if (!row) {
        throw ServiceError.notFound('investor', investorId);
      }
      return row;
    };
  }

  /**
   * As shareForTradingIn, for the tenant's firm account of the caller's mode (tenant-level keys
   * only; an investor key finds none: 404).
   */
  shareFirmForTradingIn(batch: ReadBatch, principal: Principal): () => TradingAccount {
    const read = principal.investorId === null ? this.accounts.shareFirmForTradingIn(batch, principal) : null;
    return () => {
      const row = read?.row();
      if (!row) {
        throw ServiceError.notFound('firm account');
      }
      return row;
    };
  }

  /** The tenant's firm account of the caller's mode; 404 for an investor key. */
  async findFirmAccount(principal: Principal, manager?: EntityManager): Promise<InvestmentAccountEntity> {
    const account =
      principal.investorId === null
        ? await this.accounts.findForPrincipal(principal, { firm: true }, manager)
        : null;
    if (!account) {
      throw ServiceError.notFound('firm account');
    }
    return account;
  }

  /** GET /accounts: every account the caller sees, newest first (an investor key: its own). */
  async listRecords(principal: Principal): Promise<AccountRecord[]> {
    const accounts = await this.accounts.listForPrincipal(principal);
    const agreements = await this.agreementsFor(accounts.map((a) => a.id));
    const equity = await this.equity.lastEquity(accounts);
    return accounts.map((a) => toAccountRecord(a, agreements.get(a.id) ?? [], equity.get(a.id)!));
  }

  /** An investor's account record; the firm account is read through GET /firm-account (404 here). */
  async getRecord(principal: Principal, accountId: string): Promise<AccountRecord> {
    const account = await this.findAccountForPrincipal(principal, accountId);
    if (account.account_type === 'firm') {
      throw ServiceError.notFound('account', accountId);
    }
    return this.toRecord(account);
  }

  async toRecord(account: InvestmentAccountEntity, manager?: EntityManager): Promise<AccountRecord> {
    const agreements = await this.agreementsFor([account.id], manager);
    const equity = await this.equity.lastEquity([account], manager);
    return toAccountRecord(account, agreements.get(account.id) ?? [], equity.get(account.id)!);
  }

  /** Accepted agreements per account, oldest first. */
  async agreementsFor(
    accountIds: string[],
    manager?: EntityManager,
  ): Promise<Map<string, AccountAgreementEntity[]>> {
    const byAccount = new Map<string, AccountAgreementEntity[]>(accountIds.map((id) => [id, []]));
    if (accountIds.length === 0) {
      return byAccount;
    }
    const rows = await this.accounts.agreementsOf(accountIds, manager);
    rows.forEach((row) => byAccount.get(row.account_id)?.push(row));
    return byAccount;
  }

  /** Accounts by id within the caller's scope (for rendering lists of investors). */
  async accountsByIds(
    principal: Principal,
    ids: string[],
    manager?: EntityManager,
  ): Promise<Map<string, InvestmentAccountEntity>> {
    if (ids.length === 0) {
      return new Map();
    }
    const rows = await this.accounts.byIds(principal, ids, manager);
    return new Map(rows.map((a) => [a.id, a]));
  }

  /**
   * A page of the caller's investor accounts matching `filter`, in the investors list's order and
   * with an investor's id as its cursor: the investors list filtered by e-mail or status.
   */
  accountsMatching(
    principal: Principal,
    filter: AccountFilter,
    query: CursorPageQuery,
  ): Promise<CursorPage<InvestmentAccountEntity>> {
    return this.accounts.pageMatching(principal, filter, query);
  }

  private lookup(
    principal: Principal,
    key: AccountKey,
    manager: EntityManager | undefined,
    options: LookupOptions,
  ): Promise<InvestmentAccountEntity | null> {
    return this.accounts.findForPrincipal(principal, key, manager, options.lock);
  }
}

/** Only ACTIVE accounts trade or move money: 422 SVC-422-001 naming `param` otherwise. */
export function assertAccountActive(
  account: Pick<InvestmentAccountEntity, 'id' | 'status'>,
  param: string,
): void {
  if (account.status !== 'ACTIVE') {
    throw new AccountNotActiveError(account.id, account.status, param);
  }
}
