import { Injectable, OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { JobRegistry } from 'src/core/scheduler/job-registry';
import type { DueJob } from 'src/core/scheduler/job-types';
import { JobScheduler } from 'src/core/scheduler/job-scheduler.service';
import { applyAt } from 'src/modules/corporate-actions/action-times';
import { PROCESS_JOB } from 'src/modules/corporate-actions/announcements.service';
import type { CorporateActionRow } from 'src/modules/corporate-actions/corporate-action.types';
import {
  CorporateActionsRepository,
  Scope,
} from 'src/modules/corporate-actions/corporate-actions.repository';
import { ActionSteps } from 'src/modules/corporate-actions/action-steps';
import { assertUnreachable } from 'src/core/errors/assert-unreachable';

/** The steps of an action in one tenant and mode; each job runs one batch of one step. */
export const STEPS = ['start', 'snapshot', 'pay', 'orders', 'apply'] as const;
export type Step = (typeof STEPS)[number];

/**
 * `corporate_actions.process` (per tenant, mode and action): at 04:00 of the ex date the action
 * starts; a cash dividend snapshots its holders in batches and pays them from 04:00 of the payable
 * date; a split, reverse split, stock dividend or merger cancels the asset's open orders (a symbol
 * change renames them), then applies to its holders. Each job is one transaction over at most one batch, scheduling the next batch due at
 * once, so no transaction spans every holder and no process holds them all in memory; the
 * entitlement of each account is the unique key that makes a retried batch apply nothing twice.
 */
@Injectable()
export class CorporateActionJobs implements OnModuleInit {
  constructor(
    private readonly registry: JobRegistry,
    private readonly scheduler: JobScheduler,
    private readonly actions: CorporateActionsRepository,
    private readonly steps: ActionSteps,
  ) {}

  onModuleInit(): void {
    this.registry.register(PROCESS_JOB, { run: (manager, job) => this.run(manager, job) });
  }

  async run(manager: EntityManager, job: DueJob): Promise<void> {
    const scope = { tenantId: job.tenantId, livemode: job.livemode };
    const action = await this.actions.find(scope, String(job.payload.actionId), manager, true);
    if (!action || action.canceled_at || action.processed_at) {
      return;
    }
    const step = job.payload.step as Step;
    const cursor = typeof job.payload.cursor === 'string' ? job.payload.cursor : null;
    const next = await this.runStep(manager, scope, action, step, cursor, job);
    if (next === 'done') {
      await this.steps.finish(manager, scope, action, job.now);
    } else if (next) {
      await this.scheduler.schedule(manager, {
        ...scope,
        kind: PROCESS_JOB,
        dueAt: next.dueAt ?? job.now,
        payload: { actionId: action.id, step: next.step, cursor: next.cursor, round: next.round ?? 0 },
        dedupeKey: `${action.id}:${next.step}:${next.cursor ?? ''}:${next.round ?? 0}`,
      });
    }
  }

  private async runStep(
    manager: EntityManager,
    scope: Scope,
    action: CorporateActionRow,
    step: Step,
    cursor: string | null,
    job: DueJob,
  ): Promise<Next> {
    switch (step) {
      case 'start': {
        // A corrected ex date leaves the first job behind: only the current date's job starts.
        if (job.payload.exDate !== action.ex_date) {
          return null;
        }
        await this.actions.start(manager, scope, action.id);
        return action.type === 'cash_dividend'
          ? { step: 'snapshot', cursor: null }
          : { step: 'orders', cursor: null };
      }
      case 'snapshot': {
        const last = await this.steps.snapshot(manager, scope, action, cursor, job.now);
        if (last) {
          return { step: 'snapshot', cursor: last };
        }
        const payAt = applyAt(action.market, action.payable_date ?? action.ex_date);
        return { step: 'pay', cursor: null, dueAt: payAt > job.now ? payAt : job.now };
      }
      case 'pay': {
        const last = await this.steps.pay(manager, scope, action, cursor, job.now);
        return last ? { step: 'pay', cursor: last } : 'done';
      }
      case 'orders': {
        const round = Number(job.payload.round ?? 0);
        const more = await this.steps.settleOpenOrders(manager, scope, action, job.now);
        return more ? { step: 'orders', cursor: null, round: round + 1 } : { step: 'apply', cursor: null };
      }
      case 'apply': {
        const last = await this.steps.apply(manager, scope, action, cursor, job.now);
        return last ? { step: 'apply', cursor: last } : 'done';
      }
      default:
        return assertUnreachable(step, 'corporate action step');
    }
  }
}

/** What follows a batch: another job (due now unless said), the end, or nothing. */
type Next = { step: Step; cursor: string | null; dueAt?: Date; round?: number } | 'done' | null;
