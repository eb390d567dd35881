import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { WriteBatch } from 'src/core/database/write-batch';
import type { ScheduleInput } from 'src/core/scheduler/job-types';
import { ScheduledJobsRepository } from 'src/core/scheduler/scheduled-jobs.repository';

/**
 * What modules call to have work done later on their tenant's clock. Both calls run in the
 * caller's transaction, so a job is scheduled (or canceled) exactly when the change needing it
 * commits.
 */
@Injectable()
export class JobScheduler {
  constructor(private readonly jobs: ScheduledJobsRepository) {}

  /** Schedules a job; a job of the same kind and dedupe key already there is kept as it is. */
  schedule(manager: EntityManager, input: ScheduleInput): Promise<{ id: string; created: boolean }> {
    this.checkDue(input);
    return this.jobs.insert(manager, input);
  }

  /**
   * As `schedule` for callers that need no job id (one statement instead of two when the job is
   * already there): true when this call created it.
   */
  async ensure(manager: EntityManager, input: ScheduleInput): Promise<boolean> {
    this.checkDue(input);
    return (await this.jobs.insertIfAbsent(manager, input)) !== null;
  }

  /** ensure() for many jobs in one statement (a batch job's follow-ups); how many were new. */
  ensureMany(manager: EntityManager, inputs: ScheduleInput[]): Promise<number> {
    inputs.forEach((input) => this.checkDue(input));
    return this.jobs.insertManyIfAbsent(manager, inputs);
  }

  /** schedule() as a statement of the caller's batch: the job is written when the batch runs. */
  scheduleInto(batch: WriteBatch, input: ScheduleInput): void {
    this.checkDue(input);
    this.jobs.insertInto(batch, input);
  }

  /** Cancels a job that has not run yet; false when there was none (or it already ran). */
  cancel(
    manager: EntityManager,
    key: { tenantId: string; livemode: boolean; kind: string; dedupeKey: string },
  ): Promise<boolean> {
    return this.jobs.cancel(manager, key);
  }

  private checkDue(input: ScheduleInput): void {
    if (Number.isNaN(input.dueAt.getTime())) {
      throw new Error(`Job ${input.kind}/${input.dedupeKey} has no valid due time.`);
    }
  }
}
