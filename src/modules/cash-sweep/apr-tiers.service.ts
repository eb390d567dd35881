import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from 'src/core/auth/principal';
import { ClockService } from 'src/core/clock/clock.service';
import { ServiceError } from 'src/core/errors/service-error';
import type { IdempotentRequest } from 'src/core/idempotency/idempotent-request';
import { IdempotentTransaction } from 'src/core/idempotency/idempotent-transaction';
import { newId } from 'src/core/ids/ids';
import { isSupportedCurrency } from 'src/core/money/currencies';
import {
  AprTiersRepository,
  SweepScope,
  TierRow,
  violatedUniqueIndex,
} from 'src/modules/cash-sweep/apr-tiers.repository';
import { aprTierView, AprTierView } from 'src/modules/cash-sweep/cash-sweep-views';
import type {
  CreateAprTierDto,
  ListAprTiersQuery,
  UpdateAprTierDto,
} from 'src/modules/cash-sweep/dto/cash-sweep.inputs';
import { EnrollmentsRepository } from 'src/modules/cash-sweep/enrollments.repository';

const scopeOf = (p: Principal): SweepScope => ({ tenantId: p.tenantId, livemode: p.livemode });

function assertRates(account: number, correspondent: number): void {
  if (account + correspondent > 10_000) {
    throw ServiceError.invalid(
      'account_rate_bps',
      'account_rate_bps + correspondent_rate_bps must be at most 10000.',
    );
  }
}

/**
 * APR tiers of the Cash Management add-on, and the `standard` default support sets through the
 * CLI. A rate change applies from the next day accrued; retiring a tier moves its accounts to the
 * currency's default tier.
 */
@Injectable()
export class AprTiersService {
  constructor(
    private readonly transactions: IdempotentTransaction,
    private readonly tiers: AprTiersRepository,
    private readonly enrollments: EnrollmentsRepository,
    private readonly clock: ClockService,
    private readonly dataSource: DataSource,
  ) {}

  create(
    principal: Principal,
    dto: CreateAprTierDto,
    idem: IdempotentRequest | undefined,
  ): Promise<AprTierView> {
    const scope = scopeOf(principal);
    const currency = dto.currency ?? 'USD';
    if (!isSupportedCurrency(currency)) {
      throw ServiceError.invalid('currency', `currency ${currency} is not supported.`);
    }
    const correspondent = dto.correspondent_rate_bps ?? 0;
    assertRates(dto.account_rate_bps, correspondent);
    return this.transactions.run(idem, async (manager) => {
      const now = await this.clock.now(principal, manager);
      await this.tiers.ensureDefault(manager, scope, currency, now);
      await this.assertNameFree(manager, scope, currency, dto.name);
      if (dto.is_default) {
        await this.tiers.clearDefault(manager, scope, currency, now);
      }
      const tier: TierRow = {
        id: newId('aprTier'),
        tenant_id: scope.tenantId,
        livemode: scope.livemode,
        name: dto.name,
        currency,
        account_rate_bps: dto.account_rate_bps,
        correspondent_rate_bps: correspondent,
        is_default: dto.is_default ?? false,
        status: 'active',
        metadata: dto.metadata ?? {},
        created_at: now,
        updated_at: now,
      };
      await this.tiers.insert(manager, tier).catch((err: unknown) => {
        throw uniqueRefusal(err, currency, dto.name);
      });
      return aprTierView(tier);
    });
  }

  /** Every tier (the `standard` default of USD exists from the first call). */
  async list(
    principal: Principal,
    query: ListAprTiersQuery,
  ): Promise<{ data: AprTierView[]; hasMore: boolean }> {
    const scope = scopeOf(principal);
    const manager = this.dataSource.manager;
    if (query.currency !== undefined && !isSupportedCurrency(query.currency)) {
      throw ServiceError.invalid('currency', `currency ${query.currency} is not supported.`);
    }
    await this.tiers.ensureDefault(manager, scope, query.currency ?? 'USD', await this.clock.now(principal));
    const { rows, hasMore } = await this.tiers.list(manager, scope, query);
    return { data: rows.map(aprTierView), hasMore };
  }

  async get(principal: Principal, tierId: string): Promise<AprTierView> {
    return aprTierView(await this.require(this.dataSource.manager, scopeOf(principal), tierId));
  }

  update(
    principal: Principal,
    tierId: string,
    dto: UpdateAprTierDto,
    idem: IdempotentRequest | undefined,
  ): Promise<AprTierView> {
    const scope = scopeOf(principal);
    return this.transactions.run(idem, async (manager) => {
      const tier = await this.require(manager, scope, tierId, true);
      if (tier.status !== 'active') {
        throw ServiceError.conflict(`APR tier ${tierId} is retired and changes no more.`);
      }
      assertRates(
        dto.account_rate_bps ?? tier.account_rate_bps,
        dto.correspondent_rate_bps ?? tier.correspondent_rate_bps,
      );
      if (dto.name !== undefined) {
        await this.assertNameFree(manager, scope, tier.currency, dto.name, tier.id);
      }
      const now = await this.clock.now(principal, manager);
      if (dto.is_default && !tier.is_default) {
        await this.tiers.clearDefault(manager, scope, tier.currency, now);
      }
      await this.tiers.update(manager, tier.id, dto, now).catch((err: unknown) => {
        throw uniqueRefusal(err, tier.currency, dto.name ?? tier.name);
      });
      return aprTierView((await this.tiers.find(manager, scope, tier.id))!);
    });
  }

  /** Retires a tier; its accounts move to the currency's default tier. The default cannot retire (409). */
  retire(principal: Principal, tierId: string, idem: IdempotentRequest | undefined): Promise<AprTierView> {
    const scope = scopeOf(principal);
    return this.transactions.run(idem, async (manager) => {
      const tier = await this.require(manager, scope, tierId, true);
      if (tier.status === 'retired') {
        throw ServiceError.conflict(`APR tier ${tierId} is already retired.`);
      }
      if (tier.is_default) {
        throw ServiceError.conflict(
          `APR tier ${tierId} is the ${tier.currency} default; make another tier the default first.`,
        );
      }
      const now = await this.clock.now(principal, manager);
      const fallback = await this.tiers.ensureDefault(manager, scope, tier.currency, now);
      await this.enrollments.moveTier(manager, tier.id, fallback.id, now);
      await this.tiers.update(manager, tier.id, { status: 'retired' }, now);
      return aprTierView((await this.tiers.find(manager, scope, tier.id))!);
    });
  }

  private async require(
    manager: EntityManager,
    scope: SweepScope,
    id: string,
    lock = false,
  ): Promise<TierRow> {
    const tier = id.length <= 64 ? await this.tiers.find(manager, scope, id, lock) : null;
    if (!tier) {
      throw ServiceError.notFound('APR tier', id);
    }
    return tier;
  }

  private async assertNameFree(
    manager: EntityManager,
    scope: SweepScope,
    currency: string,
    name: string,
    exceptId?: string,
  ): Promise<void> {
    if (await this.tiers.nameTaken(manager, scope, currency, name, exceptId)) {
      throw ServiceError.invalid('name', `An active ${currency} APR tier is already named '${name}'.`);
    }
  }
}

/**
 * A concurrent request took the name (or the default mark) between the check and the write: the
 * table's unique index decides, and the loser answers as the check would have (400 naming `name`)
 * or 409 for the default mark, never a 500.
 */
function uniqueRefusal(err: unknown, currency: string, name: string): unknown {
  switch (violatedUniqueIndex(err)) {
    case 'cash_sweep_tiers_active_name_key':
      return ServiceError.invalid('name', `An active ${currency} APR tier is already named '${name}'.`);
    case 'cash_sweep_tiers_default_key':
      return ServiceError.conflict(
        `Another request changed the ${currency} default APR tier at the same time; retry.`,
      );
    default:
      return err;
  }
}
