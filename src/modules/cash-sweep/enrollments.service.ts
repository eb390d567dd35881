import { Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from 'src/core/auth/principal';
import { ClockService } from 'src/core/clock/clock.service';
import { ServiceError } from 'src/core/errors/service-error';
import type { IdempotentRequest } from 'src/core/idempotency/idempotent-request';
import { IdempotentTransaction } from 'src/core/idempotency/idempotent-transaction';
import { AccountOpenings } from 'src/modules/accounts/account-openings';
import { AccountsService } from 'src/modules/accounts/accounts.service';
import type { InvestmentAccountEntity } from 'src/modules/accounts/entities/investment-account.entity';
import { AprTiersRepository, SweepScope } from 'src/modules/cash-sweep/apr-tiers.repository';
import { enrollmentView, EnrollmentView } from 'src/modules/cash-sweep/cash-sweep-views';
import type { ChangeEnrollmentDto } from 'src/modules/cash-sweep/dto/cash-sweep.inputs';
import { EnrollmentRow, EnrollmentsRepository } from 'src/modules/cash-sweep/enrollments.repository';
import { InterestAccrual } from 'src/modules/cash-sweep/interest-accrual.service';
import { marketDay } from 'src/modules/cash-sweep/interest-math';

type AccountRef = Pick<InvestmentAccountEntity, 'id' | 'tenant_id' | 'livemode' | 'investor_id' | 'currency'>;

/**
 * Each account's enrollment in its primary currency: made when the account opens (in the default
 * tier, accruing from that day), changed through Cash Management (another tier, or opted out).
 */
@Injectable()
export class EnrollmentsService implements OnModuleInit {
  constructor(
    private readonly openings: AccountOpenings,
    private readonly accounts: AccountsService,
    private readonly enrollments: EnrollmentsRepository,
    private readonly tiers: AprTiersRepository,
    private readonly accrual: InterestAccrual,
    private readonly transactions: IdempotentTransaction,
    private readonly clock: ClockService,
    private readonly dataSource: DataSource,
  ) {}

  onModuleInit(): void {
    // Investors' accounts are enrolled as they open; the tenant's firm account (no investor) never is.
    this.openings.register(async (manager, account) => {
      if (account.investor_id !== null) {
        await this.enroll(manager, account);
      }
    });
  }

  /** Enrolls the account in the default tier from today (kept as it is when already enrolled). */
  async enroll(manager: EntityManager, account: AccountRef): Promise<EnrollmentRow> {
    const investorId = account.investor_id;
    if (investorId === null) {
      throw ServiceError.refused('The firm account is not enrolled in the cash sweep.', 'account_id');
    }
    const scope: SweepScope = { tenantId: account.tenant_id, livemode: account.livemode };
    const now = await this.clock.now(scope, manager);
    const tier = await this.tiers.ensureDefault(manager, scope, account.currency, now);
    const today = marketDay(now, account.currency);
    const inserted = await this.enrollments.insert(manager, {
      account_id: account.id,
      currency: account.currency,
      tenant_id: scope.tenantId,
      livemode: scope.livemode,
      investor_id: investorId,
      status: 'enrolled',
      tier_id: tier.id,
      accrual_start: today,
      created_at: now,
      updated_at: now,
    });
    if (inserted) {
      // Starts the tenant's daily chain for the currency (a day already scheduled stays).
      await this.accrual.scheduleDay(manager, scope, account.currency, today);
    }
    return (await this.enrollments.find(manager, account.id, account.currency))!;
  }

  /** The account's enrollment, with its tier; an account opened before cash sweep is enrolled now. */
  async current(manager: EntityManager, account: AccountRef): Promise<EnrollmentView> {
    const row =
      (await this.enrollments.find(manager, account.id, account.currency)) ??
      (await this.dataSource.transaction((m) => this.enroll(m, account)));
    const tier = row.tier_id ? await this.tiers.find(manager, this.scope(account), row.tier_id) : null;
    return enrollmentView(row, tier);
  }

  async get(principal: Principal, accountId: string): Promise<EnrollmentView> {
    const account = await this.accounts.findAccountForPrincipal(principal, accountId);
    return this.current(this.dataSource.manager, account);
  }

  /** Moves the account to another active tier of its currency, or opts it out. */
  change(
    principal: Principal,
    accountId: string,
    dto: ChangeEnrollmentDto,
    idem: IdempotentRequest | undefined,
  ): Promise<EnrollmentView> {
    if ((dto.apr_tier_id === undefined) === (dto.opted_out === undefined)) {
      throw ServiceError.invalid(
        'apr_tier_id',
        'Send either apr_tier_id (a tier to enroll in) or opted_out: true.',
      );
    }
    return this.transactions.run(idem, async (manager) => {
      const account = await this.accounts.findAccountForPrincipal(principal, accountId, manager);
      await this.enroll(manager, account);
      // Read under the row lock: concurrent changes of one account apply one after the other.
      const current = (await this.enrollments.find(manager, account.id, account.currency, true))!;
      const now = await this.clock.now(principal, manager);
      if (dto.opted_out) {
        await this.enrollments.change(
          manager,
          account.id,
          account.currency,
          { status: 'opted_out', tierId: null },
          now,
        );
      } else {
        const tier = await this.tiers.find(manager, this.scope(account), dto.apr_tier_id!);
        if (!tier || tier.status !== 'active' || tier.currency !== account.currency) {
          throw ServiceError.invalid(
            'apr_tier_id',
            `apr_tier_id must name an active ${account.currency} APR tier of this tenant.`,
          );
        }
        // Coming back from opted out accrues from today: the days in between earn nothing.
        const rejoining = current.status === 'opted_out';
        await this.enrollments.change(
          manager,
          account.id,
          account.currency,
          {
            status: 'enrolled',
            tierId: tier.id,
            accrualStart: rejoining ? marketDay(now, account.currency) : undefined,
          },
          now,
        );
        if (rejoining) {
          await this.accrual.scheduleDay(
            manager,
            this.scope(account),
            account.currency,
            marketDay(now, account.currency),
          );
        }
      }
      return this.current(manager, account);
    });
  }

  private scope(account: AccountRef): SweepScope {
    return { tenantId: account.tenant_id, livemode: account.livemode };
  }
}
