import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { AppConfig } from 'src/core/config/app-config.service';
import { EventEntity } from 'src/core/events/event.entity';
import { EventsService } from 'src/core/events/events.service';
import { QueueRuntime } from 'src/core/queue/queue-runtime';
import { AttemptRecorder, AttemptRow } from 'src/modules/webhooks/delivery/attempt-recorder.service';
import { BatchLoader } from 'src/modules/webhooks/delivery/batch-loader';
import { DeadLettersService } from 'src/modules/webhooks/delivery/dead-letters.service';
import { DeliveryJobData } from 'src/modules/webhooks/delivery/delivery-job';
import { DeliveryQueue } from 'src/modules/webhooks/delivery/delivery-queue.service';
import { EndpointSlots } from 'src/modules/webhooks/delivery/endpoint-slots';
import { retryDelayMs } from 'src/modules/webhooks/delivery/retry-schedule';
import { WebhookSender } from 'src/modules/webhooks/delivery/webhook-sender.service';
import { WebhookEndpointEntity } from 'src/modules/webhooks/entities/webhook-endpoint.entity';
import { WebhookEndpointsRepository } from 'src/modules/webhooks/webhook-endpoints.repository';
import { signPayload, WebhookSecrets } from 'src/modules/webhooks/webhook-secrets';
import { safeErrorMessage } from 'src/core/logging/safe-errors';
import { settleQueueConnections } from 'src/core/queue/settle-connections';

/** A congested endpoint's extra delivery goes back on the queue for this long. */
const DEFER_MS = 10_000;
/** An endpoint whose oldest running delivery is older than this counts as slow. */
const SLOW_MS = 1_000;
const PAYLOAD_CACHE_SIZE = 5000;

export type DeliveryOutcome =
  'delivered' | 'retry scheduled' | 'dead-lettered' | 'gone' | 'deferred' | 'dropped';

interface CachedEvent {
  event: EventEntity;
  body: string;
}

/**
 * Runs delivery attempts (in the worker process, or in the API when WORKER_IN_PROCESS): POST the
 * signed event, record the attempt, then on failure schedule the next attempt on the spec's
 * schedule or, after the fifth retry, add a dead letter. A 410 disables the endpoint.
 */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('WebhookDelivery');
  private readonly endpointLoader: BatchLoader<WebhookEndpointEntity>;
  private readonly eventLoader: BatchLoader<EventEntity>;
  private readonly payloads = new Map<string, CachedEvent>();
  private readonly slots: EndpointSlots;
  private readonly concurrency: number;

  constructor(
    private readonly runtime: QueueRuntime,
    private readonly config: AppConfig,
    private readonly deliveries: DeliveryQueue,
    private readonly endpoints: WebhookEndpointsRepository,
    @InjectRepository(EventEntity) events: Repository<EventEntity>,
    private readonly sender: WebhookSender,
    private readonly secrets: WebhookSecrets,
    private readonly recorder: AttemptRecorder,
    private readonly deadLetters: DeadLettersService,
  ) {
    this.concurrency = config.get('WEBHOOK_CONCURRENCY');
    this.slots = new EndpointSlots(Math.max(1, Math.floor(this.concurrency / 4)), SLOW_MS);
    this.endpointLoader = new BatchLoader((ids) => endpoints.findByIds(ids));
    this.eventLoader = new BatchLoader(async (ids) => {
      const rows = await events.findBy({ id: In(ids) });
      return new Map(rows.map((r) => [r.id, r]));
    });
  }

  onApplicationBootstrap(): void {
    if (!this.runtime.runsConsumers) {
      return;
    }
    this.deliveries.queue.on('failed', (job, err) =>
      this.logger.warn(
        `Delivery job ${String(job.id)} failed (run ${job.attemptsMade} of 5): ${safeErrorMessage(err)}`,
      ),
    );
    this.deliveries.queue
      .process(this.concurrency, (job) => this.deliver(job.data))
      .catch((err: unknown) => this.logger.error(`Delivery consumer stopped: ${safeErrorMessage(err)}`));
  }

  /** Stops taking jobs and lets running ones end before the database and Redis close. */
  async onModuleDestroy(): Promise<void> {
    this.sender.abortAll();
    await settleQueueConnections(this.deliveries.queue);
    await this.deliveries.queue.close().catch(() => undefined);
  }

  async deliver(data: DeliveryJobData): Promise<DeliveryOutcome> {
    const [endpoint, cached] = await Promise.all([
      this.endpointLoader.load(data.endpointId),
      this.loadEvent(data.eventId),
    ]);
    if (
      !endpoint ||
      !cached ||
      endpoint.tenant_id !== cached.event.tenant_id ||
      endpoint.livemode !== cached.event.livemode ||
      endpoint.status !== 'enabled'
    ) {
      // Deleted or disabled since the event was queued: nothing to send (the event stays listed).
      return 'dropped';
    }
    const slot = await this.slots.take(endpoint.id);
    if (!slot.go) {
      await this.deliveries.defer(data, DEFER_MS);
      return 'deferred';
    }
    const { event, body } = cached;
    let result;
    try {
      const timestamp = Math.floor(Date.now() / 1000);
      const signature = this.secrets
        .signingSecrets(endpoint)
        .map((secret) => signPayload(secret, event.id, timestamp, body))
        .join(' ');
      result = await this.sender.send(
        endpoint.url,
        { 'webhook-id': event.id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature },
        body,
        this.config.isProduction || endpoint.livemode,
      );
    } finally {
      slot.release();
    }
    if (result.interrupted) {
      // Shutting down: the job fails without an attempt on record and runs again later.
      throw new Error('Delivery interrupted by shutdown.');
    }
    const row: AttemptRow = {
      tenant_id: endpoint.tenant_id,
      livemode: endpoint.livemode,
      endpoint_id: endpoint.id,
      event_id: event.id,
      run: data.run,
      attempt: data.attempt,
      attempted_at: new Date(Date.now() - result.durationMs),
      succeeded: result.error === null,
      status_code: result.statusCode,
      error: result.error,
      duration_ms: result.durationMs,
      next_attempt_at: null,
    };
    if (result.error === null) {
      await this.recorder.record(row);
      return 'delivered';
    }
    const deadLetter = {
      tenantId: endpoint.tenant_id,
      livemode: endpoint.livemode,
      endpointId: endpoint.id,
      eventId: event.id,
      attempts: data.attempt,
      lastStatusCode: result.statusCode,
      lastError: result.error,
    };
    if (result.statusCode === 410) {
      await this.recorder.record(row);
      await this.endpoints.disable(endpoint.id);
      await this.deadLetters.add({
        ...deadLetter,
        lastError: 'HTTP 410: the receiver is gone; endpoint disabled',
      });
      this.logger.warn(`Endpoint ${endpoint.id} answered 410 and was disabled`);
      return 'gone';
    }
    const delay = retryDelayMs(data.attempt);
    if (delay === null) {
      await this.recorder.record(row);
      await this.deadLetters.add(deadLetter);
      return 'dead-lettered';
    }
    // Scheduled before the attempt is recorded: a crash in between repeats this attempt (the
    // job runs again) instead of losing the retry; the retry's job id keeps it single.
    await this.deliveries.addRetry({ ...data, attempt: data.attempt + 1 }, delay);
    await this.recorder.record({ ...row, next_attempt_at: new Date(Date.now() + delay) });
    return 'retry scheduled';
  }

  private async loadEvent(id: string): Promise<CachedEvent | undefined> {
    const hit = this.payloads.get(id);
    if (hit) {
      return hit;
    }
    const event = await this.eventLoader.load(id);
    if (!event) {
      return undefined;
    }
    const cached = { event, body: JSON.stringify(EventsService.toPayload(event)) };
    if (this.payloads.size >= PAYLOAD_CACHE_SIZE) {
      this.payloads.delete(this.payloads.keys().next().value as string);
    }
    this.payloads.set(id, cached);
    return cached;
  }
}
