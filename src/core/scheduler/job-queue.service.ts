import { InjectQueue } from '@nestjs/bull';
import { Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bull';
import { withTimeout } from 'src/core/queue/queue-runtime';

/** Bull queue of due scheduled jobs: one job per run of a `scheduled_jobs` row. */
export const SCHEDULED_JOBS_QUEUE = 'scheduled-jobs';

export interface QueuedJobData {
  id: string;
}

/** Bull's own retries of a failing handler (then the row is marked failed). */
export const JOB_ATTEMPTS = 5;
const ENQUEUE_TIMEOUT_MS = 5000;

@Injectable()
export class JobQueue {
  private readonly logger = new Logger('Scheduler');

  constructor(@InjectQueue(SCHEDULED_JOBS_QUEUE) readonly queue: Queue<QueuedJobData>) {
    let lastWarning = 0;
    queue.on('error', (err: Error) => {
      if (Date.now() - lastWarning > 10_000) {
        lastWarning = Date.now();
        this.logger.warn(`Scheduled jobs queue: ${err.message}`);
      }
    });
  }

  get connected(): boolean {
    return this.queue.client.status === 'ready';
  }

  /**
   * Queues runs of these rows. The Bull job id is the row id (plus a suffix when a lost job is
   * queued again), so a relay that dies after adding but before its commit adds nothing twice.
   */
  async add(ids: string[], suffix = ''): Promise<void> {
    if (ids.length === 0) {
      return;
    }
    await withTimeout(
      this.queue.addBulk(
        ids.map((id) => ({
          data: { id },
          opts: {
            jobId: `${id}${suffix}`,
            attempts: JOB_ATTEMPTS,
            backoff: { type: 'exponential', delay: 2000 },
            removeOnComplete: { age: 3600, count: 10000 },
            removeOnFail: { age: 7 * 24 * 3600 },
          },
        })),
      ),
      ENQUEUE_TIMEOUT_MS,
      'Queueing scheduled jobs',
    );
  }
}
