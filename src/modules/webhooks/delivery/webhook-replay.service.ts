import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { anyPatternMatches } from 'src/core/events/event-patterns';
import { EventEntity } from 'src/core/events/event.entity';
import { DeadLettersService } from 'src/modules/webhooks/delivery/dead-letters.service';
import { DeliveryJobData } from 'src/modules/webhooks/delivery/delivery-job';
import { DeliveryQueue } from 'src/modules/webhooks/delivery/delivery-queue.service';
import { WebhookEndpointEntity } from 'src/modules/webhooks/entities/webhook-endpoint.entity';
import { WebhookEndpointsRepository } from 'src/modules/webhooks/webhook-endpoints.repository';

export interface ReplayedDelivery {
  event_id: string;
  endpoint_id: string;
  run: number;
}

export class ReplayError extends Error {}

/**
 * Support replays (CLI). A replay is a new run of attempts (1, then the retry schedule) for the
 * same event id, so receivers that already have it deduplicate.
 */
@Injectable()
export class WebhookReplayService {
  constructor(
    @InjectRepository(EventEntity) private readonly events: Repository<EventEntity>,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly deliveries: DeliveryQueue,
    private readonly deadLetters: DeadLettersService,
  ) {}

  /**
   * Sends the event again to every enabled endpoint of its tenant and mode that subscribes to
   * it now (a test event: to its one endpoint), or only to `endpointId`.
   */
  async replayEvent(eventId: string, endpointId?: string): Promise<ReplayedDelivery[]> {
    const event = await this.events.findOneBy({ id: eventId });
    if (!event) {
      throw new ReplayError(`No such event: '${eventId}'.`);
    }
    let targets: WebhookEndpointEntity[];
    if (endpointId) {
      targets = [await this.usableEndpoint(endpointId, event)];
    } else {
      const candidates = await this.endpoints.enabledOfScope({
        tenantId: event.tenant_id,
        livemode: event.livemode,
      });
      targets = candidates.filter((e) =>
        event.endpoint_id ? e.id === event.endpoint_id : anyPatternMatches(e.event_type_names, event.event),
      );
    }
    const jobs: DeliveryJobData[] = [];
    for (const endpoint of targets) {
      jobs.push({
        eventId: event.id,
        endpointId: endpoint.id,
        run: await this.nextRun(event.id, endpoint.id),
        attempt: 1,
      });
    }
    await this.deliveries.addMany(jobs);
    return jobs.map((j) => ({ event_id: j.eventId, endpoint_id: j.endpointId, run: j.run }));
  }

  async replayDeadLetter(id: string): Promise<ReplayedDelivery> {
    const deadLetter = await this.deadLetters.find(id);
    if (!deadLetter) {
      throw new ReplayError(`No such dead letter: '${id}'.`);
    }
    const event = await this.events.findOneByOrFail({ id: deadLetter.event_id });
    const endpoint = await this.usableEndpoint(deadLetter.endpoint_id, event);
    const job = {
      eventId: event.id,
      endpointId: endpoint.id,
      run: await this.nextRun(event.id, endpoint.id),
      attempt: 1,
    };
    await this.deliveries.addMany([job]);
    await this.deadLetters.markReplayed(id);
    return { event_id: job.eventId, endpoint_id: job.endpointId, run: job.run };
  }

  /** Replays every dead letter not replayed yet (of one tenant, if given), up to 10,000 per call. */
  async replayAllDeadLetters(tenantId?: string): Promise<{
    replayed: Array<ReplayedDelivery & { dead_letter_id: string }>;
    skipped: Array<{ dead_letter_id: string; reason: string }>;
  }> {
    const replayed: Array<ReplayedDelivery & { dead_letter_id: string }> = [];
    const skipped: Array<{ dead_letter_id: string; reason: string }> = [];
    for (const deadLetter of await this.deadLetters.list({ tenantId, limit: 10_000 })) {
      try {
        replayed.push({ dead_letter_id: deadLetter.id, ...(await this.replayDeadLetter(deadLetter.id)) });
      } catch (err) {
        if (!(err instanceof ReplayError)) {
          throw err;
        }
        skipped.push({ dead_letter_id: deadLetter.id, reason: err.message });
      }
    }
    return { replayed, skipped };
  }

  private async usableEndpoint(endpointId: string, event: EventEntity): Promise<WebhookEndpointEntity> {
    const endpoint = await this.endpoints.findById(endpointId);
    if (!endpoint || endpoint.tenant_id !== event.tenant_id || endpoint.livemode !== event.livemode) {
      throw new ReplayError(`No such webhook endpoint for event ${event.id}: '${endpointId}'.`);
    }
    if (endpoint.status !== 'enabled') {
      throw new ReplayError(`Webhook endpoint ${endpointId} is disabled; the partner must enable it first.`);
    }
    return endpoint;
  }

  /** Run number of a new replay: one past the highest recorded for this event and endpoint. */
  private async nextRun(eventId: string, endpointId: string): Promise<number> {
    const [{ run }] = (await this.events.query(
      `SELECT COALESCE(MAX("run"), 0) + 1 AS "run" FROM "webhook_delivery_attempts"
       WHERE "event_id" = $1 AND "endpoint_id" = $2`,
      [eventId, endpointId],
    )) as Array<{ run: number }>;
    return Number(run);
  }
}
