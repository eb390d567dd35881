import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository } from 'typeorm';
import { assertInvestorVisible } from 'src/core/auth/access.guard';
import type { Principal } from 'src/core/auth/principal';
import { ServiceError } from 'src/core/errors/service-error';
import { ListEnvelope, listUrl, toList } from 'src/core/http/envelope';
import { CursorPage, paginateByCursor } from 'src/core/http/pagination';
import { isIdOf, newId } from 'src/core/ids/ids';
import type { IdempotentRequest } from 'src/core/idempotency/idempotent-request';
import { IdempotentTransaction } from 'src/core/idempotency/idempotent-transaction';
import { AccountLifecycleService } from 'src/modules/accounts/account-lifecycle.service';
import { AccountsService } from 'src/modules/accounts/accounts.service';
import { sameValue } from 'src/modules/accounts/same-value';
import type { InvestmentAccountEntity } from 'src/modules/accounts/entities/investment-account.entity';
import { ComplianceService } from 'src/modules/compliance/compliance.service';
import { DisclosuresService } from 'src/modules/disclosures/disclosures.service';
import type { CreateInvestorDto } from 'src/modules/investors/dto/create-investor.dto';
import type { InvestorDto } from 'src/modules/investors/dto/investor.dto';
import type { ListInvestorsQuery } from 'src/modules/investors/dto/list-investors.query';
import type { UpdateInvestorDto } from 'src/modules/investors/dto/update-investor.dto';
import { InvestorEntity } from 'src/modules/investors/entities/investor.entity';
import { profileChange, profileFromCreate } from 'src/modules/investors/holder-profile';
import { accountFilterFor } from 'src/modules/investors/investor-status';
import { toInvestorResource } from 'src/modules/investors/investor-view';
import { mergeMetadata } from 'src/core/http/metadata';

/** An investor with its account, as lists render them. */
interface InvestorRow {
  investor: InvestorEntity;
  account: InvestmentAccountEntity;
}

/** Investors: creation opens the investment account in the same transaction. */
@Injectable()
export class InvestorsService {
  constructor(
    private readonly transactions: IdempotentTransaction,
    @InjectRepository(InvestorEntity) private readonly investors: Repository<InvestorEntity>,
    private readonly accounts: AccountsService,
    private readonly lifecycle: AccountLifecycleService,
    private readonly compliance: ComplianceService,
    private readonly disclosures: DisclosuresService,
  ) {}

  /** Creates the investor and opens its account (SUBMITTED); emits `account.created`. */
  async create(
    principal: Principal,
    dto: CreateInvestorDto,
    idem: IdempotentRequest | undefined,
  ): Promise<InvestorDto> {
    const profile = profileFromCreate(dto);
    const agreements = this.disclosures.validateAcceptances(dto.agreements, 'agreements');
    return this.transactions.run(idem, async (manager) => {
      const id = newId('investor');
      const opened = await this.lifecycle.open(manager, {
        ...profile,
        tenantId: principal.tenantId,
        livemode: principal.livemode,
        investorId: id,
        agreements,
      });
      const saved = await manager.save(
        manager.create(InvestorEntity, {
          id,
          tenant_id: principal.tenantId,
          livemode: principal.livemode,
          account_id: opened.id,
          metadata: dto.metadata ?? {},
        }),
      );
      return this.render(saved, opened, manager);
    });
  }

  /** Newest first, cursor-paginated; filters by e-mail (any case) and investor status. */
  async list(
    principal: Principal,
    query: ListInvestorsQuery,
    req: { originalUrl: string },
  ): Promise<ListEnvelope<InvestorDto>> {
    const filtered = query.email !== undefined || query.status !== undefined;
    const page = filtered ? await this.pageFiltered(principal, query) : await this.page(principal, query);
    return toList(listUrl(req), await this.renderMany(page.data), page.hasMore);
  }

  private async page(principal: Principal, query: ListInvestorsQuery): Promise<CursorPage<InvestorRow>> {
    const qb = this.investors
      .createQueryBuilder('i')
      .where('i.tenant_id = :tenantId', { tenantId: principal.tenantId })
      .andWhere('i.livemode = :livemode', { livemode: principal.livemode });
    const page = await paginateByCursor(qb, query);
    const accounts = await this.accounts.accountsByIds(
      principal,
      page.data.map((i) => i.account_id),
    );
    const data = page.data.map((investor) => ({ investor, account: accounts.get(investor.account_id)! }));
    return { data, hasMore: page.hasMore };
  }

  /**
   * Filtered by what the account holds (e-mail, status): the accounts module pages its accounts in
   * this list's order, with the investor's id as the cursor; their investors are read by id.
   */
  private async pageFiltered(
    principal: Principal,
    query: ListInvestorsQuery,
  ): Promise<CursorPage<InvestorRow>> {
    const filter = { email: query.email, ...(query.status ? accountFilterFor(query.status) : {}) };
    const page = await this.accounts.accountsMatching(principal, filter, query);
    const ids = page.data.map((a) => a.investor_id!);
    const investors = ids.length
      ? await this.investors.findBy({
          id: In(ids),
          tenant_id: principal.tenantId,
          livemode: principal.livemode,
        })
      : [];
    const byId = new Map(investors.map((i) => [i.id, i]));
    const data = page.data.map((account) => ({ investor: byId.get(account.investor_id!)!, account }));
    return { data, hasMore: page.hasMore };
  }

  async get(principal: Principal, investorId: string): Promise<InvestorDto> {
    const investor = await this.find(principal, investorId);
    const account = await this.accounts.findInvestorAccount(principal, investorId);
    return this.render(investor, account);
  }

  /** Partial update of profile, settings and metadata; emits `account.updated` when anything changed. */
  async update(
    principal: Principal,
    investorId: string,
    dto: UpdateInvestorDto,
    idem: IdempotentRequest | undefined,
  ): Promise<InvestorDto> {
    return this.transactions.run(idem, async (manager) => {
      const found = await this.find(principal, investorId, manager);
      const locked = await this.accounts.findInvestorAccount(principal, investorId, manager, { lock: true });
      const metadata = mergeMetadata(found.metadata, dto.metadata ?? undefined);
      const metadataChanged = !sameValue(metadata, found.metadata);
      const updated = await this.lifecycle.updateProfile(
        manager,
        locked,
        profileChange(locked, dto),
        metadataChanged ? ['metadata'] : [],
      );
      if (metadataChanged) {
        found.metadata = metadata;
        found.updated_at = new Date();
        await manager.save(found);
      }
      return this.render(found, updated, manager);
    });
  }

  private async find(
    principal: Principal,
    investorId: string,
    manager?: EntityManager,
  ): Promise<InvestorEntity> {
    assertInvestorVisible(principal, investorId);
    const investor = isIdOf('investor', investorId)
      ? await (manager ?? this.investors.manager).findOneBy(InvestorEntity, {
          id: investorId,
          tenant_id: principal.tenantId,
          livemode: principal.livemode,
        })
      : null;
    if (!investor) {
      throw ServiceError.notFound('investor', investorId);
    }
    return investor;
  }

  private async render(
    investor: InvestorEntity,
    account: InvestmentAccountEntity,
    manager?: EntityManager,
  ): Promise<InvestorDto> {
    return (await this.renderMany([{ investor, account }], manager))[0];
  }

  /** Renders investors; pass the transaction's manager to render what it has written. */
  private async renderMany(rows: InvestorRow[], manager?: EntityManager): Promise<InvestorDto[]> {
    const accounts = rows.map((r) => r.account);
    // In turn, not at once: a transaction's manager holds one connection, which runs one query at a time.
    const agreements = await this.accounts.agreementsFor(
      accounts.map((a) => a.id),
      manager,
    );
    const kyc = await this.compliance.summaries(accounts, manager);
    return rows.map(({ investor, account }) =>
      toInvestorResource(investor, account, agreements.get(account.id) ?? [], kyc.get(account.id)!),
    );
  }
}
