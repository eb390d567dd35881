import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ClockService } from 'src/core/clock/clock.service';
import type { ClockScope } from 'src/core/clock/clock-scope';
import { JobRegistry } from 'src/core/scheduler/job-registry';
import { ScheduledJobsRepository } from 'src/core/scheduler/scheduled-jobs.repository';

export type RunOutcome = 'done' | 'skipped' | 'not_due';

/** Jobs one clock move may run, at most (a handler rescheduling itself forever stops here). */
const MAX_JOBS_PER_MOVE = 20_000;

/**
 * Runs jobs: one transaction per job locks its row, runs the handler and marks it done. Called by
 * the queue consumer (jobs the relay found due) and by a test clock move (every job of the tenant
 * falling due up to the new time, in due order).
 */
@Injectable()
export class JobRunner {
  private readonly logger = new Logger('Scheduler');

  constructor(
    private readonly dataSource: DataSource,
    private readonly jobs: ScheduledJobsRepository,
    private readonly registry: JobRegistry,
    private readonly clock: ClockService,
  ) {}

  /**
   * Runs one job if it is still runnable: a job already done (by another process, or before a
   * crash that lost the queue's acknowledgement) is skipped. `at` fixes the clock time it runs at
   * (a clock move); otherwise it is the tenant's clock now, and a job not yet due goes back to wait.
   */
  async runOne(id: string, at?: Date): Promise<RunOutcome> {
    return this.dataSource.transaction(async (manager) => {
      const row = await this.jobs.lockRunnable(manager, id);
      if (!row) {
        return 'skipped';
      }
      const scope: ClockScope = { tenantId: row.tenant_id, livemode: row.livemode };
      const now = at ?? (await this.clock.nowIn(manager, scope));
      if (now < row.due_at) {
        await this.jobs.unqueue(manager, id);
        return 'not_due';
      }
      await this.registry.get(row.kind).run(manager, {
        id: row.id,
        tenantId: row.tenant_id,
        livemode: row.livemode,
        kind: row.kind,
        dueAt: row.due_at,
        payload: row.payload,
        now,
        attempts: row.attempts,
      });
      await this.jobs.markDone(manager, id);
      return 'done';
    });
  }

  /** Notes a failed run (its transaction rolled back); `final` gives the job up as failed. */
  async recordFailure(id: string, err: unknown, final: boolean): Promise<void> {
    const message = err instanceof Error ? err.message : String(err);
    this.logger.error({ job_id: id, final, err: message }, 'Scheduled job failed');
    await this.jobs.recordFailure(id, message, final).catch(() => undefined);
  }

  /**
   * Runs the scope's jobs due up to `to`, earliest first, each at the moment the clock passes its
   * due time (never before `from`, the clock's time before the move). Jobs these jobs schedule
   * within the window run too. A job that fails is recorded and left to the queue's retries.
   */
  async runDueUpTo(scope: ClockScope, from: Date, to: Date): Promise<number> {
    const tried: string[] = [];
    for (;;) {
      const next = await this.jobs.nextDue(scope, to, tried);
      if (!next) {
        return tried.length;
      }
      if (tried.length >= MAX_JOBS_PER_MOVE) {
        this.logger.warn({ tenant_id: scope.tenantId }, 'Clock move stopped running jobs at its limit');
        return tried.length;
      }
      tried.push(next.id);
      const at = next.due_at > from ? next.due_at : from;
      try {
        await this.runOne(next.id, at);
      } catch (err) {
        await this.recordFailure(next.id, err, false);
      }
    }
  }
}
