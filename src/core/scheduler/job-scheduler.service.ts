import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
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
    if (Number.isNaN(input.dueAt.getTime())) {
      throw new Error(`Job ${input.kind}/${input.dedupeKey} has no valid due time.`);
    }
    return this.jobs.insert(manager, input);
  }

  /**
   * As `schedule` for callers that need no job id (one statement instead of two when the job is
   * already there): true when this call created it.
   */
  async ensure(manager: EntityManager, input: ScheduleInput): Promise<boolean> {
    if (Number.isNaN(input.dueAt.getTime())) {
      throw new Error(`Job ${input.kind}/${input.dedupeKey} has no valid due time.`);
    }
    return (await this.jobs.insertIfAbsent(manager, input)) !== null;
  }

  /** Cancels a job that has not run yet; false when there was none (or it already ran). */
  cancel(
    manager: EntityManager,
    key: { tenantId: string; livemode: boolean; kind: string; dedupeKey: string },
  ): Promise<boolean> {
    return this.jobs.cancel(manager, key);
  }
}
