import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from 'src/core/config/app-config.service';
import { QueueRuntime } from 'src/core/queue/queue-runtime';
import { JobQueue } from 'src/core/scheduler/job-queue.service';
import { ScheduledJobsRepository } from 'src/core/scheduler/scheduled-jobs.repository';

const BATCH = 500;
/** A job queued this long ago and still not finished was lost by the queue (Redis data loss). */
const STALE_AFTER_MS = 15 * 60_000;

/**
 * Moves scheduled jobs that fell due (by their tenant's clock) onto the Bull queue, like the
 * outbox relay does for events: in one transaction it locks due rows (SKIP LOCKED, so several
 * relays can run), queues them and marks them queued. Redis down: the transaction rolls back and
 * the rows wait. Runs where queue consumers run (worker process, or the API with WORKER_IN_PROCESS).
 */
@Injectable()
export class JobRelay implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Scheduler');
  private readonly intervalMs: number;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;
  private lastFailure = 0;

  constructor(
    private readonly runtime: QueueRuntime,
    private readonly dataSource: DataSource,
    private readonly jobs: ScheduledJobsRepository,
    private readonly queue: JobQueue,
    config: AppConfig,
  ) {
    this.intervalMs = config.get('SCHEDULER_INTERVAL_MS');
  }

  onApplicationBootstrap(): void {
    if (this.runtime.runsConsumers) {
      this.stopped = false;
      this.schedule(0);
    }
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) {
      return;
    }
    this.timer = setTimeout(() => {
      this.running = this.pass().finally(() => {
        this.running = undefined;
        this.schedule(this.intervalMs);
      });
    }, delayMs);
  }

  private async pass(): Promise<void> {
    try {
      while (!this.stopped && (await this.relayBatch()) === BATCH) {
        // a full batch: more may be due
      }
    } catch (err) {
      if (Date.now() - this.lastFailure > 10_000) {
        this.lastFailure = Date.now();
        this.logger.warn(`Due jobs wait: ${(err as Error).message}`);
      }
    }
  }

  /** One transaction: claim due rows (and lost queued ones), queue them, commit. */
  async relayBatch(): Promise<number> {
    if (!this.queue.connected) {
      throw new Error('the queue (Redis) is not reachable');
    }
    return this.dataSource.transaction(async (manager) => {
      const due = await this.jobs.claimDue(manager, new Date(), BATCH);
      await this.queue.add(due);
      const stale = await this.jobs.claimStale(manager, new Date(Date.now() - STALE_AFTER_MS), BATCH);
      await this.queue.add(stale, `:requeued:${Date.now()}`);
      return due.length;
    });
  }
}
