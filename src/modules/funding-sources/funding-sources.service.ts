import { Injectable } from '@nestjs/common';
import type { Principal } from 'src/core/auth/principal';
import { ClockService } from 'src/core/clock/clock.service';
import type { ReadBatch } from 'src/core/database/read-batch';
import { ServiceError } from 'src/core/errors/service-error';
import { ListEnvelope, toList, toResource } from 'src/core/http/envelope';
import type { CursorPageQuery } from 'src/core/http/pagination';
import type { IdempotentRequest } from 'src/core/idempotency/idempotent-request';
import { IdempotentTransaction } from 'src/core/idempotency/idempotent-transaction';
import { isIdOf, newId } from 'src/core/ids/ids';
import type { EntityManager } from 'typeorm';
import { AccountsService } from 'src/modules/accounts/accounts.service';
import type { InvestmentAccountEntity } from 'src/modules/accounts/entities/investment-account.entity';
import type {
  CreateFundingSourceDto,
  DeletedFundingSourceDto,
  FundingSourceDto,
} from 'src/modules/funding-sources/dto/funding-source.dto';
import { FundingSourceEntity } from 'src/modules/funding-sources/entities/funding-source.entity';
import {
  checkFundingSource,
  FAILING_TEST_ACCOUNT_NUMBER,
} from 'src/modules/funding-sources/funding-source-rules';
import { FundingSourcesRepository } from 'src/modules/funding-sources/funding-sources.repository';

/** What a transfer needs to know of the bank account it uses. */
export interface UsableFundingSource {
  id: string;
  currency: string;
  sandboxOutcome: 'settle' | 'fail' | null;
}

function render(row: FundingSourceEntity): FundingSourceDto {
  return toResource('funding_source', row, {
    investor_id: row.investor_id,
    type: row.type,
    account_holder_name: row.account_holder_name,
    account_number_last4: row.account_number_last4,
    routing_number: row.routing_number,
    bank_code: row.bank_code,
    currency: row.currency,
    country: row.country,
    status: 'verified' as const,
  }) as FundingSourceDto;
}

/** Investors' bank accounts: link, list, read, remove; and the check transfers make. */
@Injectable()
export class FundingSourcesService {
  constructor(
    private readonly transactions: IdempotentTransaction,
    private readonly accounts: AccountsService,
    private readonly repository: FundingSourcesRepository,
    private readonly clock: ClockService,
  ) {}

  create(
    principal: Principal,
    investorId: string,
    body: CreateFundingSourceDto,
    idem: IdempotentRequest | undefined,
  ): Promise<FundingSourceDto> {
    return this.transactions.run(idem, async (manager) =>
      this.link(
        manager,
        principal,
        await this.accounts.findInvestorAccount(principal, investorId, manager),
        body,
      ),
    );
  }

  /** POST /firm-account/funding-sources: a bank account of the tenant's firm account. */
  createForFirm(
    principal: Principal,
    body: CreateFundingSourceDto,
    idem: IdempotentRequest | undefined,
  ): Promise<FundingSourceDto> {
    return this.transactions.run(idem, async (manager) =>
      this.link(manager, principal, await this.accounts.findFirmAccount(principal, manager), body),
    );
  }

  /** GET /firm-account/funding-sources. */
  async listForFirm(
    principal: Principal,
    query: CursorPageQuery,
    url: string,
  ): Promise<ListEnvelope<FundingSourceDto>> {
    const account = await this.accounts.findFirmAccount(principal);
    const page = await this.repository.pageForAccount(principal, account.id, query);
    return toList(url, page.data.map(render), page.hasMore);
  }

  private async link(
    manager: EntityManager,
    principal: Principal,
    account: InvestmentAccountEntity,
    body: CreateFundingSourceDto,
  ): Promise<FundingSourceDto> {
    checkFundingSource(body);
    if (account.status === 'CLOSED') {
      throw ServiceError.refused(
        `Account ${account.id} is CLOSED; it can link no bank account.`,
        'investor_id',
      );
    }
    const row: FundingSourceEntity = {
      id: newId('fundingSource'),
      tenant_id: principal.tenantId,
      livemode: principal.livemode,
      investor_id: account.investor_id,
      account_id: account.id,
      type: 'bank_account',
      account_holder_name: body.account_holder_name,
      account_number: body.account_number,
      account_number_last4: body.account_number.slice(-4),
      routing_number: body.routing_number ?? null,
      bank_code: body.bank_code ?? null,
      currency: body.currency,
      country: body.country,
      status: 'verified',
      sandbox_outcome: principal.livemode
        ? null
        : body.account_number === FAILING_TEST_ACCOUNT_NUMBER
          ? 'fail'
          : 'settle',
      metadata: body.metadata ?? {},
      created_at: await this.clock.now(principal, manager),
      removed_at: null,
    };
    await this.repository.insert(manager, row);
    return render(row);
  }

  async list(
    principal: Principal,
    investorId: string,
    query: CursorPageQuery,
    url: string,
  ): Promise<ListEnvelope<FundingSourceDto>> {
    await this.accounts.findInvestorAccount(principal, investorId);
    const page = await this.repository.page(principal, investorId, query);
    return toList(url, page.data.map(render), page.hasMore);
  }

  async get(principal: Principal, investorId: string, id: string): Promise<FundingSourceDto> {
    return render(await this.visible(principal, investorId, id));
  }

  /** Removes it from use (transfers already started with it go on). */
  async remove(principal: Principal, investorId: string, id: string): Promise<DeletedFundingSourceDto> {
    const row = await this.visible(principal, investorId, id);
    await this.repository.markRemoved(row.id, await this.clock.now(principal));
    return { id: row.id, object: 'funding_source', deleted: true, livemode: row.livemode };
  }

  /**
   * For transfers: the usable bank account named in a request, as a read of the caller's batch
   * (one round trip with its other reads). Once the batch ran, the answer gives it for the investor
   * the transfer is for, or throws 400 naming `param` (unknown, removed, or another investor's).
   */
  usableIn(
    batch: ReadBatch,
    principal: Principal,
    id: string,
    param: string,
  ): (account: { id: string; investor_id: string | null }) => UsableFundingSource {
    const read = isIdOf('fundingSource', id) ? this.repository.usableIn(batch, principal, id) : null;
    return (account) => {
      const row = read?.row();
      if (!row || row.account_id !== account.id) {
        const link =
          account.investor_id === null
            ? 'POST /v1/firm-account/funding-sources'
            : `POST /v1/investors/${account.investor_id}/funding-sources`;
        throw ServiceError.invalid(
          param,
          `No such bank account for this ${account.investor_id === null ? 'firm account' : 'investor'}: '${id}'. Link one with ${link}.`,
        );
      }
      return { id: row.id, currency: row.currency, sandboxOutcome: row.sandbox_outcome };
    };
  }

  private async visible(principal: Principal, investorId: string, id: string): Promise<FundingSourceEntity> {
    await this.accounts.findInvestorAccount(principal, investorId);
    const row = isIdOf('fundingSource', id)
      ? await this.repository.findActive(principal, investorId, id)
      : null;
    if (!row) {
      throw ServiceError.notFound('funding source', id);
    }
    return row;
  }
}
