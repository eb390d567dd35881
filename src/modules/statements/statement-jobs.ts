import { Injectable, OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { readsMayLagFor } from 'src/core/database/replicas/read-context';
import { JobRegistry } from 'src/core/scheduler/job-registry';
import { JobScheduler } from 'src/core/scheduler/job-scheduler.service';
import type { DueJob, ScheduleInput } from 'src/core/scheduler/job-types';
import { AccountOwners } from 'src/modules/accounts/account-owners';
import { ActivitiesService } from 'src/modules/activities/activities.service';
import type { ActivityInput, ActivityScope } from 'src/modules/activities/activity-types';
import { GeneratedDocuments } from 'src/modules/documents/generated-documents.service';
import { BrandingService } from 'src/modules/statements/branding.service';
import { ConfirmationBuilder } from 'src/modules/statements/confirmation-builder';
import { confirmationDue, nextMonth, statementDue } from 'src/modules/statements/period';
import { renderConfirmation, renderStatement } from 'src/modules/statements/pdf/render-documents';
import { StatementBuilder } from 'src/modules/statements/statement-builder';
import { businessDate } from 'src/modules/activities/activities.service';

export const CONFIRMATION_JOB = 'statements.trade_confirmation';
export const STATEMENT_JOB = 'statements.account_statement';

/**
 * Documents on the clock, one job per account and period: recording a FILL schedules that day's
 * confirmation (07:00 New York of the next business day) and any activity schedules its month's
 * statement (09:00 New York of the next month's first business day). A statement whose account
 * still holds cash or positions schedules the next month's. A job finding its document made
 * (a retry) makes nothing; the document's key makes a second one impossible. Documents are the
 * investor's: an account without an investor (the firm account) has its activities listed but
 * schedules no document job, and a job finding no investor makes nothing.
 */
@Injectable()
export class StatementJobs implements OnModuleInit {
  constructor(
    private readonly registry: JobRegistry,
    private readonly scheduler: JobScheduler,
    private readonly activities: ActivitiesService,
    private readonly owners: AccountOwners,
    private readonly documents: GeneratedDocuments,
    private readonly branding: BrandingService,
    private readonly confirmations: ConfirmationBuilder,
    private readonly statements: StatementBuilder,
  ) {}

  onModuleInit(): void {
    this.activities.onRecorded((manager, scope, recorded) => this.schedule(manager, scope, recorded));
    this.registry.register(CONFIRMATION_JOB, { run: (manager, job) => this.confirm(manager, job) });
    this.registry.register(STATEMENT_JOB, { run: (manager, job) => this.statement(manager, job) });
  }

  /** The confirmation and statement jobs the recorded activities call for, in one statement. */
  private async schedule(
    manager: EntityManager,
    scope: ActivityScope,
    recorded: ActivityInput[],
  ): Promise<void> {
    const firm = await this.owners.withoutInvestor(manager, scope, [
      ...new Set(recorded.map((a) => a.accountId)),
    ]);
    const jobs = new Map<string, ScheduleInput>();
    for (const a of recorded.filter((r) => !firm.has(r.accountId))) {
      const date = businessDate(a.at);
      if (a.type === 'FILL') {
        jobs.set(`c:${a.accountId}:${date}`, this.confirmationJob(scope, a.accountId, date));
      }
      jobs.set(
        `s:${a.accountId}:${date.slice(0, 7)}`,
        this.statementJob(scope, a.accountId, date.slice(0, 7)),
      );
    }
    await this.scheduler.ensureMany(manager, [...jobs.values()]);
  }

  private confirmationJob(scope: ActivityScope, accountId: string, date: string): ScheduleInput {
    return {
      ...scope,
      kind: CONFIRMATION_JOB,
      dueAt: confirmationDue(date),
      payload: { accountId, tradeDate: date },
      dedupeKey: `${accountId}:${date}`,
    };
  }

  private statementJob(scope: ActivityScope, accountId: string, month: string): ScheduleInput {
    return {
      ...scope,
      kind: STATEMENT_JOB,
      dueAt: statementDue(month),
      payload: { accountId, month },
      dedupeKey: `${accountId}:${month}`,
    };
  }

  private async confirm(manager: EntityManager, job: DueJob): Promise<void> {
    const scope = { tenantId: job.tenantId, livemode: job.livemode };
    const accountId = String(job.payload.accountId);
    const tradeDate = String(job.payload.tradeDate);
    const key = `trade_confirmation:${accountId}:${tradeDate}`;
    const investorId = await this.investorOf(scope, accountId);
    if (!investorId || (await this.documents.exists(manager, scope, key))) {
      return;
    }
    const data = await readsMayLagFor(scope, () => this.confirmations.build(scope, accountId, tradeDate));
    if (data.executions.length === 0) {
      return;
    }
    const pdf = await renderConfirmation(data, await this.branding.get(scope.tenantId, manager), job.now);
    await this.documents.create(manager, {
      ...scope,
      investorId,
      accountId,
      type: 'trade_confirmation',
      key,
      fileName: `trade-confirmation-${tradeDate}.pdf`,
      pdf,
      data: data as unknown as Record<string, unknown>,
      at: job.now,
    });
  }

  private async statement(manager: EntityManager, job: DueJob): Promise<void> {
    const scope = { tenantId: job.tenantId, livemode: job.livemode };
    const accountId = String(job.payload.accountId);
    const month = String(job.payload.month);
    const key = `account_statement:${accountId}:${month}`;
    const investorId = await this.investorOf(scope, accountId);
    if (!investorId || (await this.documents.exists(manager, scope, key))) {
      return;
    }
    // Due hours after its period closed: a replica within the bound and past the tenant's last
    // change holds all of it, and a month's reads for every account leave the primary.
    const data = await readsMayLagFor(scope, () => this.statements.build(scope, accountId, month));
    const pdf = await renderStatement(data, await this.branding.get(scope.tenantId, manager), job.now);
    await this.documents.create(manager, {
      ...scope,
      investorId,
      accountId,
      type: 'account_statement',
      key,
      fileName: `account-statement-${month}.pdf`,
      pdf,
      data: data as unknown as Record<string, unknown>,
      at: job.now,
    });
    const holds =
      data.cash.some((c) => c.closing !== '0' && !/^0\.0*$/.test(c.closing)) || data.positions.length > 0;
    if (holds) {
      await this.scheduler.ensure(manager, this.statementJob(scope, accountId, nextMonth(month)));
    }
  }

  /** The account's investor (documents belong to investors); null when the account is gone. */
  private investorOf(scope: ActivityScope, accountId: string): Promise<string | null> {
    return this.owners.investorOf(scope, accountId);
  }
}
