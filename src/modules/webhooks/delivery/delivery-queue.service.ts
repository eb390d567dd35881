import { InjectQueue } from '@nestjs/bull';
import { Injectable, Logger } from '@nestjs/common';
import type { JobOptions, Queue } from 'bull';
import { AppConfig } from 'src/core/config/app-config.service';
import { withTimeout } from 'src/core/queue/queue-runtime';
import {
  DeliveryJobData,
  deliveryJobId,
  DeliveryQueueJob,
  WEBHOOK_DELIVERY_QUEUE,
} from 'src/modules/webhooks/delivery/delivery-job';

/** How long an enqueue may wait for Redis before the caller gives up (and retries later). */
const ENQUEUE_TIMEOUT_MS = 5000;
const ADD_BULK_CHUNK = 1000;

/** Puts delivery attempts on the Bull queue. */
@Injectable()
export class DeliveryQueue {
  private readonly logger = new Logger('DeliveryQueue');
  private readonly jobTimeoutMs: number;

  constructor(
    @InjectQueue(WEBHOOK_DELIVERY_QUEUE) readonly queue: Queue<DeliveryQueueJob>,
    config: AppConfig,
  ) {
    // Bull's own limit is a backstop behind the delivery's own bounds (the database could hang
    // too): a delivery waits at most WEBHOOK_TIMEOUT_MS for a sending slot, then its POST at most
    // as long again.
    this.jobTimeoutMs = 2 * config.get('WEBHOOK_TIMEOUT_MS') + 30_000;
    let lastWarning = 0;
    queue.on('error', (err: Error) => {
      // Redis unreachable: ioredis reconnects by itself; say so at most every 10 s.
      if (Date.now() - lastWarning > 10_000) {
        lastWarning = Date.now();
        this.logger.warn(`Delivery queue: ${err.message}`);
      }
    });
  }

  private options(data: DeliveryQueueJob, delayMs = 0, jobId = deliveryJobId(data)): JobOptions {
    return {
      jobId,
      ...(delayMs > 0 ? { delay: delayMs } : {}),
      // These retries are for the worker itself failing (process stopped, database down), not
      // for the receiver: receiver failures are scheduled as new jobs on the spec's schedule.
      attempts: 5,
      backoff: { type: 'fixed', delay: 5000 },
      timeout: this.jobTimeoutMs,
      // Completed jobs are kept a while so a repeated add with the same id stays a no-op.
      removeOnComplete: { age: 3600, count: 10000 },
      removeOnFail: { age: 7 * 24 * 3600 },
    };
  }

  /** False while Redis is unreachable (the client reconnects by itself). */
  get connected(): boolean {
    return this.queue.client.status === 'ready';
  }

  async addMany(items: DeliveryQueueJob[]): Promise<void> {
    for (let i = 0; i < items.length; i += ADD_BULK_CHUNK) {
      const chunk = items.slice(i, i + ADD_BULK_CHUNK);
      await withTimeout(
        this.queue.addBulk(chunk.map((data) => ({ data, opts: this.options(data) }))),
        ENQUEUE_TIMEOUT_MS,
        'Enqueueing webhook deliveries',
      );
    }
  }

  async addRetry(data: DeliveryJobData, delayMs: number): Promise<void> {
    await withTimeout(
      this.queue.add(data, this.options(data, delayMs)),
      ENQUEUE_TIMEOUT_MS,
      'Scheduling a webhook retry',
    );
  }

  /** Puts an attempt back a little later without counting it (its endpoint is congested). */
  async defer(data: DeliveryJobData, delayMs: number): Promise<void> {
    const jobId = `${deliveryJobId(data)}:deferred:${Date.now()}`;
    await withTimeout(
      this.queue.add(data, this.options(data, delayMs, jobId)),
      ENQUEUE_TIMEOUT_MS,
      'Deferring',
    );
  }
}
