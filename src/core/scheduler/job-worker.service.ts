import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { Job } from 'bull';
import { QueueRuntime } from 'src/core/queue/queue-runtime';
import { JOB_ATTEMPTS, JobQueue, QueuedJobData } from 'src/core/scheduler/job-queue.service';
import { JobRunner, RunOutcome } from 'src/core/scheduler/job-runner.service';
import { settleQueueConnections } from 'src/core/queue/settle-connections';

const CONCURRENCY = 8;

/** Consumes the scheduled-jobs queue (worker process, or the API with WORKER_IN_PROCESS). */
@Injectable()
export class JobWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Scheduler');

  constructor(
    private readonly runtime: QueueRuntime,
    private readonly queue: JobQueue,
    private readonly runner: JobRunner,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.runtime.runsConsumers) {
      return;
    }
    this.queue.queue
      .process(CONCURRENCY, (job: Job<QueuedJobData>) => this.run(job))
      .catch((err: unknown) => this.logger.error(`Scheduled jobs consumer stopped: ${String(err)}`));
  }

  async onModuleDestroy(): Promise<void> {
    await settleQueueConnections(this.queue.queue);
    await this.queue.queue.close().catch(() => undefined);
  }

  async run(job: Job<QueuedJobData>): Promise<RunOutcome> {
    try {
      return await this.runner.runOne(job.data.id);
    } catch (err) {
      await this.runner.recordFailure(job.data.id, err, job.attemptsMade + 1 >= JOB_ATTEMPTS);
      throw err;
    }
  }
}
