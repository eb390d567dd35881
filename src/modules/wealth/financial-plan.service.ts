import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Principal } from 'src/core/auth/principal';
import { ClockService } from 'src/core/clock/clock.service';
import { ServiceError } from 'src/core/errors/service-error';
import type { IdempotentRequest } from 'src/core/idempotency/idempotent-request';
import { IdempotentTransaction } from 'src/core/idempotency/idempotent-transaction';
import { newId } from 'src/core/ids/ids';
import { minorUnits } from 'src/core/money/currencies';
import { AccountEquity } from 'src/modules/accounts/account-equity';
import { AccountsService } from 'src/modules/accounts/accounts.service';
import type { InvestmentAccountEntity } from 'src/modules/accounts/entities/investment-account.entity';
import type { FinancialPlanDto } from 'src/modules/wealth/dto/financial-plan.dto';
import type { FinancialPlanQuery } from 'src/modules/wealth/dto/financial-plan-query';
import { FinancialPlanRepository } from 'src/modules/wealth/financial-plan.repository';
import { PlanDocument, PlanRules } from 'src/modules/wealth/plan-document';
import { financialPlanView, PlanVersion } from 'src/modules/wealth/plan-view';
import { utcDate } from 'src/modules/wealth/projections/calendar-months';

/** A change of a plan: from the current version (null when there is none yet) to the next. */
export type PlanChange = (
  current: PlanVersion | null,
  rules: PlanRules,
) => { status: PlanVersion['status']; document: PlanDocument };

/**
 * Reads and writes of an account's financial plan. Every write is one transaction: the plan row
 * locked, the next version stored, the response rendered (and, for POST, stored with its
 * Idempotency-Key). "Today" is the clock's date (the tenant's test clock in test mode).
 */
@Injectable()
export class FinancialPlanService {
  constructor(
    private readonly transactions: IdempotentTransaction,
    private readonly accounts: AccountsService,
    private readonly equity: AccountEquity,
    private readonly clock: ClockService,
    private readonly plans: FinancialPlanRepository,
  ) {}

  async get(principal: Principal, accountId: string, query: FinancialPlanQuery): Promise<FinancialPlanDto> {
    const account = await this.accounts.findAccountForPrincipal(principal, accountId);
    const plan =
      query.version !== undefined
        ? await this.plans.version(account.id, query.version)
        : await this.plans.current(account.id);
    if (!plan || plan.version === 0) {
      throw query.version !== undefined
        ? ServiceError.notFound('financial plan version', String(query.version))
        : ServiceError.notFound('financial plan of account', account.id);
    }
    const now = await this.clock.now(principal);
    return this.render(account, plan, now, query.include_projections ?? false);
  }

  /** Applies `change` to an active plan as its next version (PATCH, goals, archive). */
  write(
    principal: Principal,
    accountId: string,
    idem: IdempotentRequest | undefined,
    change: PlanChange,
  ): Promise<FinancialPlanDto> {
    return this.transactions.run(idem, async (manager) => {
      const { plan } = await this.apply(manager, principal, accountId, change, false);
      return plan;
    });
  }

  /** PUT: creates the plan, or replaces it (an archived one too) as its next version. */
  replace(
    principal: Principal,
    accountId: string,
    change: PlanChange,
  ): Promise<{ created: boolean; plan: FinancialPlanDto }> {
    return this.transactions.run(undefined, (manager) =>
      this.apply(manager, principal, accountId, change, true),
    );
  }

  private async apply(
    manager: EntityManager,
    principal: Principal,
    accountId: string,
    change: PlanChange,
    create: boolean,
  ): Promise<{ created: boolean; plan: FinancialPlanDto }> {
    const account = await this.accounts.findAccountForPrincipal(principal, accountId, manager);
    const now = await this.clock.now(principal, manager);
    if (create) {
      await this.plans.ensure(manager, {
        id: newId('financialPlan'),
        tenantId: principal.tenantId,
        livemode: principal.livemode,
        accountId: account.id,
        document: emptyDocument(),
        now,
      });
    }
    const current = await this.plans.current(account.id, manager, true);
    const existing = current && current.version > 0 ? current : null;
    if (!current || (!existing && !create)) {
      throw ServiceError.notFound('financial plan of account', account.id);
    }
    if (existing?.status === 'archived' && !create) {
      throw ServiceError.conflict('The financial plan is archived: PUT a new plan to start again.');
    }
    const rules = new PlanRules(minorUnits(account.currency), utcDate(now));
    const { status, document } = change(existing, rules);
    const next: PlanVersion = {
      ...current,
      version: current.version + 1,
      status,
      document,
      createdAt: existing ? current.createdAt : now,
      writtenAt: now,
    };
    await this.plans.write(manager, next);
    return { created: !existing, plan: await this.render(account, next, now, false, manager) };
  }

  private async render(
    account: InvestmentAccountEntity,
    plan: PlanVersion,
    now: Date,
    includeProjections: boolean,
    manager?: EntityManager,
  ): Promise<FinancialPlanDto> {
    const linked = plan.document.goals.some((g) => g.linked_to_account);
    const equity = linked ? (await this.equity.lastEquity([account], manager)).get(account.id)! : '0';
    return financialPlanView(plan, {
      today: utcDate(now),
      equity,
      dp: minorUnits(account.currency),
      includeProjections,
    });
  }
}

function emptyDocument(): PlanDocument {
  return {
    goals: [],
    life_events: [],
    external_accounts: [],
    income: { total_monthly_income: '0', sources: [] },
    expenses: { total_monthly_expenses: '0', categories: [] },
    investment_outlook: { expected_return_rate: '0.05', inflation_assumption: null, risk_capacity: 'medium' },
  };
}
