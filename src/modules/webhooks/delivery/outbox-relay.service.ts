import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from 'src/core/config/app-config.service';
import { anyPatternMatches } from 'src/core/events/event-patterns';
import { EventEntity } from 'src/core/events/event.entity';
import { EventNotifications } from 'src/core/events/event-notifications';
import { EventsService } from 'src/core/events/events.service';
import { QueueRuntime } from 'src/core/queue/queue-runtime';
import { DeliveryQueueJob } from 'src/modules/webhooks/delivery/delivery-job';
import { DeliveryQueue } from 'src/modules/webhooks/delivery/delivery-queue.service';
import { WebhookEndpointsRepository } from 'src/modules/webhooks/webhook-endpoints.repository';
import { safeErrorMessage } from 'src/core/logging/safe-errors';

/**
 * Moves committed events from the outbox table to the delivery queue: in one transaction it
 * locks a batch of unrelayed events (SKIP LOCKED, so several relays can run), adds one job per
 * event with its subscribed endpoints, and stamps the events relayed. If Redis is down the enqueue
 * fails, the transaction rolls back and the events wait; if the process dies before the commit,
 * the rows unlock and the next relay takes them. Nothing committed is lost.
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('OutboxRelay');
  private readonly intervalMs: number;
  private readonly batchSize: number;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;
  private lastFailure = 0;
  private generation = 0;
  /** An event committed while a pass was running: run another at once. */
  private woken = false;
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly runtime: QueueRuntime,
    private readonly dataSource: DataSource,
    private readonly events: EventsService,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly deliveries: DeliveryQueue,
    private readonly notifications: EventNotifications,
    config: AppConfig,
  ) {
    this.intervalMs = config.get('EVENT_RELAY_INTERVAL_MS');
    this.batchSize = config.get('EVENT_RELAY_BATCH_SIZE');
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.runtime.runsConsumers) {
      this.start();
      this.unsubscribe = await this.notifications.subscribe({
        onEvent: () => this.wake(),
        onResync: () => this.wake(),
      });
    }
  }

  async onModuleDestroy(): Promise<void> {
    this.unsubscribe?.();
    await this.stop();
  }

  /** A committed event waits: relay now, or right after the pass in progress. */
  wake(): void {
    if (this.stopped) {
      return;
    }
    if (this.running) {
      this.woken = true;
    } else if (this.timer) {
      clearTimeout(this.timer);
      this.schedule(0, this.generation);
    }
  }

  start(): void {
    if (this.stopped) {
      this.stopped = false;
      // First pass once the queue has connected (at boot, or when Redis comes up).
      const generation = ++this.generation;
      void this.deliveries.queue
        .isReady()
        .catch(() => undefined)
        .then(() => this.schedule(0, generation));
    }
  }

  /** Stops polling and waits for a pass in progress to end. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.generation++;
    clearTimeout(this.timer);
    await this.running;
  }

  /** One chain of passes per start(); a chain from before a stop() ends quietly. */
  private schedule(delayMs: number, generation: number): void {
    if (!this.stopped && generation === this.generation) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.woken = false;
        this.running = this.drain().finally(() => {
          this.running = undefined;
          this.schedule(this.woken ? 0 : this.intervalMs, generation);
        });
      }, delayMs);
    }
  }

  /** Relays batches until the outbox is empty (or a batch fails). */
  private async drain(): Promise<void> {
    try {
      while (!this.stopped && (await this.relayBatch()) === this.batchSize) {
        // a full batch: more may be waiting
      }
    } catch (err) {
      // Logged at most every 10 s: Redis being down would otherwise log every tick.
      if (Date.now() - this.lastFailure > 10_000) {
        this.logger.warn(`Events wait in the outbox: ${safeErrorMessage(err)}`);
        this.lastFailure = Date.now();
      }
    }
  }

  /** One transaction: claim, enqueue, mark. Returns how many events it handled. */
  async relayBatch(): Promise<number> {
    if (!this.deliveries.connected) {
      // No transaction (and no row locks) while Redis is away; the next pass tries again.
      throw new Error('the queue (Redis) is not reachable');
    }
    return this.dataSource.transaction(async (manager) => {
      const events = await this.events.claimUnrelayed(manager, this.batchSize);
      if (events.length === 0) {
        return 0;
      }
      await this.deliveries.addMany(await this.fanOut(events));
      await this.events.markRelayed(
        manager,
        events.map((e) => e.id),
      );
      return events.length;
    });
  }

  /**
   * One delivery per (event, enabled endpoint of the same tenant and mode that subscribes to it):
   * one job for an event with one such endpoint, one fan-out job for an event with several.
   */
  private async fanOut(events: EventEntity[]): Promise<DeliveryQueueJob[]> {
    const tenantIds = [...new Set(events.map((e) => e.tenant_id))];
    const byScope = new Map<string, Awaited<ReturnType<WebhookEndpointsRepository['enabledForTenants']>>>();
    for (const endpoint of await this.endpoints.enabledForTenants(tenantIds)) {
      const key = `${endpoint.tenant_id}:${endpoint.livemode}`;
      byScope.set(key, [...(byScope.get(key) ?? []), endpoint]);
    }
    const jobs: DeliveryQueueJob[] = [];
    for (const event of events) {
      const endpointIds = (byScope.get(`${event.tenant_id}:${event.livemode}`) ?? [])
        .filter((endpoint) =>
          event.endpoint_id
            ? endpoint.id === event.endpoint_id
            : anyPatternMatches(endpoint.event_type_names, event.event),
        )
        .map((endpoint) => endpoint.id);
      if (endpointIds.length === 1) {
        jobs.push({ eventId: event.id, endpointId: endpointIds[0], run: 0, attempt: 1 });
      } else if (endpointIds.length > 1) {
        jobs.push({ eventId: event.id, endpointIds, run: 0, attempt: 1 });
      }
    }
    return jobs;
  }
}
