import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository, SelectQueryBuilder } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { CursorPage, CursorPageQuery, paginateByCursor } from 'src/core/http/pagination';
import type { Principal } from 'src/core/auth/principal';
import type { BatchedRead, ReadBatch } from 'src/core/database/read-batch';
import { AccountAgreementEntity } from 'src/modules/accounts/entities/account-agreement.entity';
import type { AccountStatus, KycStatus } from 'src/modules/accounts/entities/account-types';
import { InvestmentAccountEntity } from 'src/modules/accounts/entities/investment-account.entity';

/** Which of the caller's accounts a look-up wants: by id, by investor, or the firm account. */
export type AccountKey = { id: string } | { investorId: string } | { firm: true };

/**
 * A lock held until the caller's transaction ends (needs a manager): true for a change of the
 * account; 'share' to keep its status as read while moving money (other readers go on).
 */
export type AccountLock = boolean | 'share';

export interface AccountFilter {
  email?: string;
  status?: AccountStatus;
  kycStatus?: KycStatus;
  notKycStatus?: KycStatus;
}

/** What placing an order needs to know of an account. */
export type TradingAccount = Pick<
  InvestmentAccountEntity,
  'id' | 'investor_id' | 'status' | 'currency' | 'enabled_assets' | 'crypto_status' | 'trading_type'
>;

/** What moving money needs to know of an account. */
export type AccountSummary = Pick<InvestmentAccountEntity, 'id' | 'investor_id' | 'status' | 'currency'>;

const TRADING_COLUMNS = 'id, investor_id, status, currency, enabled_assets, crypto_status, trading_type';

/**
 * The SQL of investment accounts and their accepted agreements. Every read for a caller is scoped
 * to its tenant, mode and, for an investor key, its investor; AccountsService decides what a row
 * not found means (404) and which rules an account must meet.
 */
@Injectable()
export class AccountsRepository {
  constructor(
    @InjectRepository(InvestmentAccountEntity) private readonly accounts: Repository<InvestmentAccountEntity>,
    @InjectRepository(AccountAgreementEntity) private readonly agreements: Repository<AccountAgreementEntity>,
  ) {}

  /** One of the caller's accounts, or null. */
  findForPrincipal(
    principal: Principal,
    key: AccountKey,
    manager?: EntityManager,
    lock: AccountLock = false,
  ): Promise<InvestmentAccountEntity | null> {
    const qb = this.scoped(principal, manager);
    if ('id' in key) {
      qb.andWhere('a.id = :accountId', { accountId: key.id });
    } else if ('investorId' in key) {
      qb.andWhere('a.investor_id = :investorId', { investorId: key.investorId });
    } else {
      qb.andWhere(`a.account_type = 'firm'`);
    }
    if (lock) {
      qb.setLock(lock === 'share' ? 'pessimistic_read' : 'pessimistic_write');
    }
    return qb.getOne();
  }

  /** The caller's investor accounts (the firm account left out), newest first. */
  listForPrincipal(principal: Principal): Promise<InvestmentAccountEntity[]> {
    return this.scoped(principal)
      .andWhere(`a.account_type <> 'firm'`)
      .orderBy('a.created_at', 'DESC')
      .addOrderBy('a.id', 'DESC')
      .getMany();
  }

  /** The caller's accounts among `ids`. */
  byIds(principal: Principal, ids: string[], manager?: EntityManager): Promise<InvestmentAccountEntity[]> {
    return this.scoped(principal, manager).andWhere('a.id IN (:...ids)', { ids }).getMany();
  }

  /** An account by id, in the caller's transaction (it was just written there). */
  byId(manager: EntityManager, id: string): Promise<InvestmentAccountEntity> {
    return manager.findOneByOrFail(InvestmentAccountEntity, { id });
  }

  /**
   * A page of the caller's investor accounts matching `filter`, in the investors list's order
   * (newest first, the cursor an investor's id), for that list filtered by e-mail or status: an
   * investor and its account are written in one transaction, so the account's created_at is its
   * investor's, and the account carries its investor's id. Paged here however many accounts match.
   */
  pageMatching(
    principal: Principal,
    filter: AccountFilter,
    query: CursorPageQuery,
  ): Promise<CursorPage<InvestmentAccountEntity>> {
    const qb = this.scoped(principal).andWhere('a.investor_id IS NOT NULL');
    if (filter.email !== undefined) {
      qb.andWhere('a.email_address = :filterEmail', { filterEmail: filter.email.trim().toLowerCase() });
    }
    if (filter.status) {
      qb.andWhere('a.status = :filterStatus', { filterStatus: filter.status });
    }
    if (filter.kycStatus) {
      qb.andWhere('a.kyc_status = :filterKyc', { filterKyc: filter.kycStatus });
    }
    if (filter.notKycStatus) {
      qb.andWhere('a.kyc_status <> :filterNotKyc', { filterNotKyc: filter.notKycStatus });
    }
    return paginateByCursor(qb, query, 50, 'investor_id');
  }

  /**
   * Adds to the caller's batch the read of an account for money movement, held FOR SHARE until the
   * transaction ends: by account id or by investor, within the caller's scope.
   */
  shareForMoneyMovementIn(
    batch: ReadBatch,
    principal: Principal,
    by: 'id' | 'investor_id',
    value: string,
  ): BatchedRead<AccountSummary> {
    return batch.add<AccountSummary>(
      `SELECT id, investor_id, status, currency FROM investment_accounts
        WHERE ${by === 'id' ? 'id' : 'investor_id'} = $1 AND tenant_id = $2 AND livemode = $3
          AND ($4::text IS NULL OR investor_id = $4)
        FOR SHARE`,
      [value, principal.tenantId, principal.livemode, principal.investorId],
    );
  }

  /** Adds to the caller's batch the read of an investor's account for trading, held FOR SHARE. */
  shareForTradingIn(batch: ReadBatch, principal: Principal, investorId: string): BatchedRead<TradingAccount> {
    return batch.add<TradingAccount>(
      `SELECT ${TRADING_COLUMNS} FROM investment_accounts
        WHERE investor_id = $1 AND tenant_id = $2 AND livemode = $3
        FOR SHARE`,
      [investorId, principal.tenantId, principal.livemode],
    );
  }

  /** Adds to the caller's batch the read of the tenant's firm account (the caller's mode), FOR SHARE. */
  shareFirmForTradingIn(batch: ReadBatch, principal: Principal): BatchedRead<TradingAccount> {
    return batch.add<TradingAccount>(
      `SELECT ${TRADING_COLUMNS} FROM investment_accounts
        WHERE account_type = 'firm' AND tenant_id = $1 AND livemode = $2
        FOR SHARE`,
      [principal.tenantId, principal.livemode],
    );
  }

  /**
   * Inserts a new account unless its random account number is taken (the clash skips the row
   * instead of aborting the transaction): true when it was inserted.
   */
  async insertUnlessNumberTaken(
    manager: EntityManager,
    values: QueryDeepPartialEntity<InvestmentAccountEntity>,
  ): Promise<boolean> {
    const inserted = await manager
      .createQueryBuilder()
      .insert()
      .into(InvestmentAccountEntity)
      .values(values)
      .orIgnore()
      .returning(['id'])
      .execute();
    return (inserted.raw as unknown[]).length === 1;
  }

  /** Writes a changed account (the caller holds its row). */
  async save(manager: EntityManager, account: InvestmentAccountEntity): Promise<void> {
    await manager.save(account);
  }

  async touch(manager: EntityManager, accountId: string, updatedAt: Date): Promise<void> {
    await manager.update(InvestmentAccountEntity, { id: accountId }, { updated_at: updatedAt });
  }

  /** Accepted agreements of these accounts, oldest first. */
  agreementsOf(accountIds: string[], manager?: EntityManager): Promise<AccountAgreementEntity[]> {
    return (manager ?? this.agreements.manager).find(AccountAgreementEntity, {
      where: { account_id: In(accountIds) },
      order: { signed_at: 'ASC', created_at: 'ASC' },
    });
  }

  /** Inserts agreements, an agreement's revision accepted again kept once: how many were new. */
  async insertAgreements(
    manager: EntityManager,
    rows: Array<QueryDeepPartialEntity<AccountAgreementEntity>>,
  ): Promise<number> {
    const result = await manager
      .createQueryBuilder()
      .insert()
      .into(AccountAgreementEntity)
      .values(rows)
      .orIgnore()
      .returning(['id'])
      .execute();
    return (result.raw as unknown[]).length;
  }

  private scoped(principal: Principal, manager?: EntityManager): SelectQueryBuilder<InvestmentAccountEntity> {
    const qb = (manager ?? this.accounts.manager)
      .createQueryBuilder(InvestmentAccountEntity, 'a')
      .where('a.tenant_id = :scopeTenant', { scopeTenant: principal.tenantId })
      .andWhere('a.livemode = :scopeLivemode', { scopeLivemode: principal.livemode });
    if (principal.investorId) {
      qb.andWhere('a.investor_id = :scopeInvestor', { scopeInvestor: principal.investorId });
    }
    return qb;
  }
}
