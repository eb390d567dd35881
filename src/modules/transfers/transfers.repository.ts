import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import type { Principal } from 'src/core/auth/principal';
import type { WriteBatch } from 'src/core/database/write-batch';
import { CursorPage, CursorPageQuery, paginateByCursor } from 'src/core/http/pagination';
import { TransferEntity, TransferStatus, TransferType } from 'src/modules/transfers/entities/transfer.entity';

export interface Scope {
  tenantId: string;
  livemode: boolean;
}

export interface AccountTransferFilter {
  type?: TransferType;
  status?: TransferStatus;
  createdGte?: Date;
  createdLt?: Date;
  limit: number;
  offset: number;
}

/** Every query on `transfers`; rows are always read within a tenant and mode. */
@Injectable()
export class TransfersRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** A new transfer, as a statement of the caller's batch (it runs for every transfer request). */
  insertInto(batch: WriteBatch, t: TransferEntity): void {
    batch.add({
      changes: { table: 'transfers', key: t.id },
      sql: `INSERT INTO transfers (id, transaction_id, tenant_id, livemode, investor_id, account_id, type, status, currency,
                              amount, fee, net_amount, funding_type, funding_source_id, method, description,
                              external_reference_id, metadata, failure_reason, sandbox_outcome, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21)
       RETURNING id`,
      params: [
        t.id,
        t.transaction_id,
        t.tenant_id,
        t.livemode,
        t.investor_id,
        t.account_id,
        t.type,
        t.status,
        t.currency,
        t.amount,
        t.fee,
        t.net_amount,
        t.funding_type,
        t.funding_source_id,
        t.method,
        t.description,
        t.external_reference_id,
        JSON.stringify(t.metadata),
        t.failure_reason,
        t.sandbox_outcome,
        t.created_at,
      ],
    });
  }

  /** The transfer by its wallet transaction id, locked until the caller's transaction ends. */
  lockByTransactionId(
    manager: EntityManager,
    scope: Scope,
    transactionId: string,
  ): Promise<TransferEntity | null> {
    return manager
      .createQueryBuilder(TransferEntity, 't')
      .where('t.transaction_id = :transactionId', { transactionId })
      .andWhere('t.tenant_id = :tenantId AND t.livemode = :livemode', {
        tenantId: scope.tenantId,
        livemode: scope.livemode,
      })
      .setLock('pessimistic_write')
      .getOne();
  }

  /**
   * Applies a change made at `at` (the tenant's clock time, like the change's own `*_at`) to a
   * locked row and returns the row as it now is. The row must still have the status it was read
   * with: callers lock it first, and a caller that did not would otherwise change a transfer whose
   * money another transaction has already moved.
   */
  async update(
    manager: EntityManager,
    row: TransferEntity,
    change: Partial<
      Pick<
        TransferEntity,
        'status' | 'processing_at' | 'settled_at' | 'failed_at' | 'canceled_at' | 'failure_reason'
      >
    >,
    at: Date,
  ): Promise<TransferEntity> {
    const stamped = { ...change, updated_at: at };
    const result = await manager.update(TransferEntity, { id: row.id, status: row.status }, stamped);
    if (result.affected === 0) {
      throw new Error(`Transfer ${row.id} is no longer ${row.status}: it was changed without its row lock.`);
    }
    return Object.assign(row, stamped);
  }

  /** How many transfers of an account are still pending or processing (an account with any cannot close). */
  async countInFlight(manager: EntityManager, scope: Scope, accountId: string): Promise<number> {
    const rows: Array<{ n: number }> = await manager.query(
      `SELECT count(*)::int AS n FROM transfers WHERE tenant_id = $1 AND livemode = $2 AND account_id = $3
         AND status IN ('pending', 'processing')`,
      [scope.tenantId, scope.livemode, accountId],
    );
    return rows[0].n;
  }

  findByTransactionId(
    scope: Scope,
    accountId: string,
    transactionId: string,
  ): Promise<TransferEntity | null> {
    return this.dataSource.manager.findOneBy(TransferEntity, {
      tenant_id: scope.tenantId,
      livemode: scope.livemode,
      account_id: accountId,
      transaction_id: transactionId,
    });
  }

  /** An account's wallet transactions, newest first, with the list filters and offset paging. */
  listForAccount(scope: Scope, accountId: string, filter: AccountTransferFilter): Promise<TransferEntity[]> {
    const qb = this.dataSource.manager
      .createQueryBuilder(TransferEntity, 't')
      .where('t.tenant_id = :tenantId AND t.livemode = :livemode', {
        tenantId: scope.tenantId,
        livemode: scope.livemode,
      })
      .andWhere('t.account_id = :accountId', { accountId });
    if (filter.type) {
      qb.andWhere('t.type = :type', { type: filter.type });
    }
    if (filter.status) {
      qb.andWhere('t.status = :status', { status: filter.status });
    }
    if (filter.createdGte) {
      qb.andWhere('t.created_at >= :createdGte', { createdGte: filter.createdGte });
    }
    if (filter.createdLt) {
      qb.andWhere('t.created_at < :createdLt', { createdLt: filter.createdLt });
    }
    return qb
      .orderBy('t.created_at', 'DESC')
      .addOrderBy('t.id', 'DESC')
      .skip(filter.offset)
      .take(filter.limit)
      .getMany();
  }

  /** One deposit or withdrawal of an investor (envelope view), or null. */
  findView(
    principal: Principal,
    investorId: string,
    type: TransferType,
    id: string,
  ): Promise<TransferEntity | null> {
    return this.dataSource.manager.findOneBy(TransferEntity, {
      tenant_id: principal.tenantId,
      livemode: principal.livemode,
      investor_id: investorId,
      type,
      id,
    });
  }

  /**
   * An investor's deposits or withdrawals, newest first, cursor-paginated, by the investor's one
   * account (`accountId`, resolved from the investor in the caller's scope): the account's index
   * (transfers_account_created_idx) serves this list too, so a transfer row pays for one listing
   * index instead of two. The investor is not filtered again: its rows are the account's, and a
   * second condition on the same rows would make the planner misjudge how many there are.
   */
  pageViews(
    principal: Principal,
    accountId: string,
    type: TransferType,
    query: CursorPageQuery,
  ): Promise<CursorPage<TransferEntity>> {
    const qb: SelectQueryBuilder<TransferEntity> = this.dataSource.manager
      .createQueryBuilder(TransferEntity, 't')
      .where('t.tenant_id = :tenantId AND t.livemode = :livemode', {
        tenantId: principal.tenantId,
        livemode: principal.livemode,
      })
      .andWhere('t.account_id = :accountId AND t.type = :type', { accountId, type });
    return paginateByCursor(qb, query);
  }
}
