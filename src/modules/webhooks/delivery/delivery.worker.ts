import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { AppConfig } from 'src/core/config/app-config.service';
import { EventEntity } from 'src/core/events/event.entity';
import { EventsService } from 'src/core/events/events.service';
import { QueueRuntime } from 'src/core/queue/queue-runtime';
import { AttemptRecorder } from 'src/modules/webhooks/delivery/attempt-recorder.service';
import { AttemptSettler, DeliveryOutcome } from 'src/modules/webhooks/delivery/attempt-settler.service';
import { BatchLoader } from 'src/modules/webhooks/delivery/batch-loader';
import {
  deliveriesOf,
  DeliveryJobData,
  DeliveryQueueJob,
  FanOutJobData,
  isFanOut,
} from 'src/modules/webhooks/delivery/delivery-job';
import { DeliveryQueue } from 'src/modules/webhooks/delivery/delivery-queue.service';
import { EndpointSlots } from 'src/modules/webhooks/delivery/endpoint-slots';
import { SendLimiter } from 'src/modules/webhooks/delivery/send-limiter';
import { WebhookSender } from 'src/modules/webhooks/delivery/webhook-sender.service';
import {
  DeliveryTarget,
  WebhookEndpointsRepository,
} from 'src/modules/webhooks/webhook-endpoints.repository';
import { signWithKey, WebhookSecrets } from 'src/modules/webhooks/webhook-secrets';
import { safeErrorMessage } from 'src/core/logging/safe-errors';
import { settleQueueConnections } from 'src/core/queue/settle-connections';

/** A congested endpoint's extra delivery goes back on the queue for this long. */
const DEFER_MS = 10_000;
/** An endpoint whose oldest running delivery is older than this counts as slow. */
const SLOW_MS = 1_000;
const PAYLOAD_CACHE_SIZE = 5000;

/** What a fan-out job did: how many of its deliveries ended each way. */
export type FanOutOutcome = Partial<Record<DeliveryOutcome | 'already recorded', number>>;

interface CachedEvent {
  event: EventEntity;
  body: string;
}

/** False when the endpoint was disabled since the event was queued (or is not the event's). */
function deliverable(endpoint: DeliveryTarget, event: EventEntity): boolean {
  return (
    endpoint.tenant_id === event.tenant_id &&
    endpoint.livemode === event.livemode &&
    endpoint.status === 'enabled'
  );
}

/**
 * Runs delivery attempts (in the worker process, or in the API when WORKER_IN_PROCESS): POST the
 * signed event, then AttemptSettler records the attempt and schedules what follows. A fan-out
 * job runs each of its deliveries that way. At most WEBHOOK_CONCURRENCY POSTs are in flight.
 */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('WebhookDelivery');
  private readonly endpointLoader: BatchLoader<DeliveryTarget>;
  private readonly eventLoader: BatchLoader<EventEntity>;
  private readonly payloads = new Map<string, CachedEvent>();
  private readonly slots: EndpointSlots;
  private readonly limiter: SendLimiter;
  private readonly concurrency: number;
  /** How long a delivery may wait for a sending slot before it is put back on the queue. */
  private readonly maxSendWaitMs: number;

  constructor(
    private readonly runtime: QueueRuntime,
    private readonly config: AppConfig,
    private readonly deliveries: DeliveryQueue,
    private readonly endpoints: WebhookEndpointsRepository,
    @InjectRepository(EventEntity) events: Repository<EventEntity>,
    private readonly sender: WebhookSender,
    private readonly secrets: WebhookSecrets,
    private readonly recorder: AttemptRecorder,
    private readonly settler: AttemptSettler,
  ) {
    this.concurrency = config.get('WEBHOOK_CONCURRENCY');
    this.slots = new EndpointSlots(Math.max(1, Math.floor(this.concurrency / 4)), SLOW_MS);
    this.limiter = new SendLimiter(this.concurrency);
    this.maxSendWaitMs = config.get('WEBHOOK_TIMEOUT_MS');
    this.endpointLoader = new BatchLoader((ids) => endpoints.findDeliveryTargets(ids));
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
      .process(this.concurrency, (job) => this.run(job.data))
      .catch((err: unknown) => this.logger.error(`Delivery consumer stopped: ${safeErrorMessage(err)}`));
  }

  /** Stops taking jobs and lets running ones end before the database and Redis close. */
  async onModuleDestroy(): Promise<void> {
    this.sender.abortAll();
    await settleQueueConnections(this.deliveries.queue);
    await this.deliveries.queue.close().catch(() => undefined);
  }

  run(data: DeliveryQueueJob): Promise<DeliveryOutcome | FanOutOutcome> {
    return isFanOut(data) ? this.deliverFanOut(data) : this.deliver(data);
  }

  async deliver(data: DeliveryJobData): Promise<DeliveryOutcome> {
    const [endpoint, cached] = await Promise.all([
      this.endpointLoader.load(data.endpointId),
      this.loadEvent(data.eventId),
    ]);
    if (!endpoint || !cached || !deliverable(endpoint, cached.event)) {
      // Deleted or disabled since the event was queued: nothing to send (the event stays listed).
      return 'dropped';
    }
    const releaseSend = await this.limiter.acquire(this.maxSendWaitMs);
    return releaseSend ? this.deliverTo(data, endpoint, cached, releaseSend) : this.defer(data);
  }

  /**
   * The deliveries of a fan-out job, each started once it has a sending slot (one waits at a time,
   * so a job holds no more than the POSTs it has in flight). Deliveries not started within
   * WEBHOOK_TIMEOUT_MS of the job's start go back on the queue. One that fails to run (the
   * database is down, the process stops) fails the job once the others have ended; Bull runs it
   * again, and the deliveries already on record are then skipped.
   */
  async deliverFanOut(data: FanOutJobData): Promise<FanOutOutcome> {
    const deadline = Date.now() + this.maxSendWaitMs;
    const [recorded, endpoints, cached] = await Promise.all([
      this.recorder.recordedEndpoints(data.eventId, data.run, data.attempt),
      this.endpoints.findDeliveryTargets(data.endpointIds),
      this.loadEvent(data.eventId),
    ]);
    const outcomes: FanOutOutcome = recorded.size > 0 ? { 'already recorded': recorded.size } : {};
    const count = (outcome: DeliveryOutcome) => (outcomes[outcome] = (outcomes[outcome] ?? 0) + 1);
    let failure: { reason: unknown } | undefined;
    const running: Array<Promise<void>> = [];
    for (const delivery of deliveriesOf(data)) {
      const endpoint = endpoints.get(delivery.endpointId);
      if (failure) {
        break; // the job fails and runs again: the rest is sent then
      }
      if (recorded.has(delivery.endpointId)) {
        continue;
      }
      if (!endpoint || !cached || !deliverable(endpoint, cached.event)) {
        count('dropped');
        continue;
      }
      const releaseSend = await this.limiter.acquire(Math.max(0, deadline - Date.now()));
      const started = releaseSend
        ? this.deliverTo(delivery, endpoint, cached, releaseSend)
        : this.defer(delivery);
      // Handled at once: a rejection must not wait for the loop to end unobserved.
      running.push(
        started.then(
          (outcome) => void count(outcome),
          (reason: unknown) => void (failure ??= { reason }),
        ),
      );
    }
    await Promise.all(running);
    if (failure) {
      throw failure.reason;
    }
    return outcomes;
  }

  private async defer(data: DeliveryJobData): Promise<'deferred'> {
    await this.deliveries.defer(data, DEFER_MS);
    return 'deferred';
  }

  /**
   * One POST, with a sending slot of the process and one of the endpoint's. An endpoint that has
   * its share in flight is waited for without holding the sending slot (other endpoints use it
   * meanwhile), and the delivery goes back on the queue when the endpoint is slow to answer.
   */
  private async deliverTo(
    data: DeliveryJobData,
    endpoint: DeliveryTarget,
    cached: CachedEvent,
    sendSlot: () => void,
  ): Promise<DeliveryOutcome> {
    let releaseSend = sendSlot;
    let slot: { release(): void } | null = this.slots.tryTake(endpoint.id);
    if (!slot) {
      releaseSend();
      const taken = await this.slots.take(endpoint.id);
      if (!taken.go) {
        return this.defer(data);
      }
      const again = await this.limiter.acquire(this.maxSendWaitMs);
      if (!again) {
        taken.release();
        return this.defer(data);
      }
      [slot, releaseSend] = [taken, again];
    }
    const { event, body } = cached;
    let result;
    try {
      const timestamp = Math.floor(Date.now() / 1000);
      const signature = this.secrets
        .signingKeys(endpoint)
        .map((key) => signWithKey(key, event.id, timestamp, body))
        .join(' ');
      result = await this.sender.send(
        endpoint.url,
        { 'webhook-id': event.id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature },
        body,
        this.config.isProduction || endpoint.livemode,
      );
    } finally {
      slot.release();
      releaseSend();
    }
    if (result.interrupted) {
      // Shutting down: the job fails without an attempt on record and runs again later.
      throw new Error('Delivery interrupted by shutdown.');
    }
    return this.settler.settle(data, endpoint, result);
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
