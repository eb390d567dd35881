import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from 'src/core/auth/principal';
import type { BatchedRead, ReadBatch } from 'src/core/database/read-batch';
import { CursorPage, CursorPageQuery, paginateByCursor } from 'src/core/http/pagination';
import { FundingSourceEntity } from 'src/modules/funding-sources/entities/funding-source.entity';

/** What a transfer reads of a bank account. */
export interface UsableRow {
  id: string;
  account_id: string;
  currency: string;
  sandbox_outcome: 'settle' | 'fail' | null;
}

/** Every query on `funding_sources`, within a tenant and mode. */
@Injectable()
export class FundingSourcesRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(manager: EntityManager, row: FundingSourceEntity): Promise<void> {
    await manager.save(FundingSourceEntity, row);
  }

  /** An investor's funding source that is not removed, or null. */
  findActive(
    scope: { tenantId: string; livemode: boolean },
    investorId: string,
    id: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<FundingSourceEntity | null> {
    return manager.findOneBy(FundingSourceEntity, {
      id,
      tenant_id: scope.tenantId,
      livemode: scope.livemode,
      investor_id: investorId,
      status: 'verified',
    });
  }

  /** What a transfer needs of a usable bank account (no decryption), as a read of the caller's batch. */
  usableIn(
    batch: ReadBatch,
    scope: { tenantId: string; livemode: boolean },
    id: string,
  ): BatchedRead<UsableRow> {
    return batch.add<UsableRow>(
      `SELECT id, account_id, currency, sandbox_outcome FROM funding_sources
        WHERE id = $1 AND tenant_id = $2 AND livemode = $3 AND status = 'verified'`,
      [id, scope.tenantId, scope.livemode],
    );
  }

  page(
    principal: Principal,
    investorId: string,
    query: CursorPageQuery,
  ): Promise<CursorPage<FundingSourceEntity>> {
    const qb = this.dataSource.manager
      .createQueryBuilder(FundingSourceEntity, 'f')
      .where('f.tenant_id = :tenantId AND f.livemode = :livemode', {
        tenantId: principal.tenantId,
        livemode: principal.livemode,
      })
      .andWhere(`f.investor_id = :investorId AND f.status = 'verified'`, { investorId });
    return paginateByCursor(qb, query);
  }

  /** Verified bank accounts of one investment account (the firm account's), newest first. */
  pageForAccount(
    principal: { tenantId: string; livemode: boolean },
    accountId: string,
    query: CursorPageQuery,
  ): Promise<CursorPage<FundingSourceEntity>> {
    const qb = this.dataSource.manager
      .createQueryBuilder(FundingSourceEntity, 'f')
      .where('f.tenant_id = :tenantId AND f.livemode = :livemode', {
        tenantId: principal.tenantId,
        livemode: principal.livemode,
      })
      .andWhere(`f.account_id = :accountId AND f.status = 'verified'`, { accountId });
    return paginateByCursor(qb, query);
  }

  async markRemoved(id: string, at: Date): Promise<void> {
    await this.dataSource.manager.update(FundingSourceEntity, { id }, { status: 'removed', removed_at: at });
  }
}
