import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { Principal } from 'src/core/auth/principal';
import { ServiceError } from 'src/core/errors/service-error';
import { ListEnvelope, toList, unixSeconds } from 'src/core/http/envelope';
import { CursorPageQuery } from 'src/core/http/pagination';
import { isIdOf } from 'src/core/ids/ids';
import type { IdempotentRequest } from 'src/core/idempotency/idempotent-request';
import { IdempotentTransaction } from 'src/core/idempotency/idempotent-transaction';
import { EventsReadService } from 'src/modules/events/events.service';
import { ReplayError, WebhookReplayService } from 'src/modules/webhooks/delivery/webhook-replay.service';
import {
  DeliveryAttemptDto,
  EventResendDto,
  ResendEventDto,
} from 'src/modules/webhooks/dto/delivery-attempt.dto';
import { WebhookDeliveryAttemptEntity } from 'src/modules/webhooks/entities/webhook-delivery-attempt.entity';
import { WebhookEndpointsRepository } from 'src/modules/webhooks/webhook-endpoints.repository';
import {
  WebhookEndpointConflictError,
  WebhookEndpointNotFoundError,
} from 'src/modules/webhooks/webhook-errors';

type AttemptWithUrl = WebhookDeliveryAttemptEntity & { url: string };

/** Delivery attempts as partners see them, and resends (the support CLI's replay, scoped to the caller). */
@Injectable()
export class DeliveriesService {
  constructor(
    @InjectRepository(WebhookDeliveryAttemptEntity)
    private readonly attempts: Repository<WebhookDeliveryAttemptEntity>,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly events: EventsReadService,
    private readonly replay: WebhookReplayService,
    private readonly transactions: IdempotentTransaction,
  ) {}

  async forEndpoint(
    principal: Principal,
    webhookId: string,
    query: CursorPageQuery,
    url: string,
  ): Promise<ListEnvelope<DeliveryAttemptDto>> {
    const endpoint = isIdOf('webhookEndpoint', webhookId)
      ? await this.endpoints.findScoped(scopeOf(principal), webhookId)
      : null;
    if (!endpoint) {
      throw ServiceError.notFound('webhook endpoint', webhookId);
    }
    return this.page(principal, 'a.endpoint_id = :id', webhookId, query, url);
  }

  async forEvent(
    principal: Principal,
    eventId: string,
    query: CursorPageQuery,
    url: string,
  ): Promise<ListEnvelope<DeliveryAttemptDto>> {
    await this.events.get(principal, eventId);
    return this.page(principal, 'a.event_id = :id', eventId, query, url);
  }

  /**
   * Queues a new run of attempts for the same event id (receivers deduplicate on it). The jobs are
   * queued inside the transaction that stores the idempotent response: a failed commit can at
   * worst send the event once more, never answer "resent" without sending.
   */
  resend(
    principal: Principal,
    eventId: string,
    body: ResendEventDto,
    idem: IdempotentRequest | undefined,
  ): Promise<EventResendDto> {
    return this.transactions.run(idem, async (manager) => {
      await this.events.get(principal, eventId);
      if (body.endpoint !== undefined) {
        const endpoint = isIdOf('webhookEndpoint', body.endpoint)
          ? await this.endpoints.findScoped(scopeOf(principal), body.endpoint, manager)
          : null;
        if (!endpoint) {
          throw new WebhookEndpointNotFoundError(body.endpoint);
        }
        if (endpoint.status !== 'enabled') {
          throw WebhookEndpointConflictError.disabled(endpoint.id);
        }
      }
      let sent;
      try {
        sent = await this.replay.replayEvent(eventId, body.endpoint);
      } catch (err) {
        if (err instanceof ReplayError) {
          throw new WebhookEndpointConflictError(err.message);
        }
        throw err;
      }
      return {
        object: 'event_resend' as const,
        event_id: eventId,
        livemode: principal.livemode,
        deliveries: sent.map((d) => ({ webhook_id: d.endpoint_id, run: d.run })),
      };
    });
  }

  private async page(
    principal: Principal,
    filter: string,
    id: string,
    query: CursorPageQuery,
    url: string,
  ): Promise<ListEnvelope<DeliveryAttemptDto>> {
    const limit = query.limit ?? 50;
    if (query.starting_after && query.ending_before) {
      throw ServiceError.invalid('ending_before', 'Send starting_after or ending_before, not both.');
    }
    const qb = this.attempts
      .createQueryBuilder('a')
      .innerJoin('a.endpoint', 'e')
      .addSelect('e.url', 'url')
      .where('a.tenant_id = :tenantId AND a.livemode = :livemode', {
        tenantId: principal.tenantId,
        livemode: principal.livemode,
      })
      .andWhere(filter, { id });
    const cursorId = query.starting_after ?? query.ending_before;
    if (cursorId) {
      const param = query.starting_after ? 'starting_after' : 'ending_before';
      const cursor = await qb.clone().andWhere('a.id = :cursorId', { cursorId }).getCount();
      if (cursor === 0) {
        throw ServiceError.invalid(param, `No such attempt: '${cursorId}'.`);
      }
      const op = query.starting_after ? '<' : '>';
      qb.andWhere(
        `(a.attempted_at, a.id) ${op} ((SELECT c.attempted_at FROM "webhook_delivery_attempts" c WHERE c.id = :cursorId), :cursorId)`,
        { cursorId },
      );
    }
    const ascending = Boolean(query.ending_before);
    qb.orderBy('a.attempted_at', ascending ? 'ASC' : 'DESC')
      .addOrderBy('a.id', ascending ? 'ASC' : 'DESC')
      .limit(limit + 1);
    const { entities, raw } = await qb.getRawAndEntities<{ url: string }>();
    const rows: AttemptWithUrl[] = entities.map((e, i) => ({ ...e, url: raw[i].url }));
    const page = rows.slice(0, limit);
    return toList(url, (ascending ? page.reverse() : page).map(toDto), rows.length > limit);
  }
}

function scopeOf(principal: Principal) {
  return { tenantId: principal.tenantId, livemode: principal.livemode };
}

function toDto(a: AttemptWithUrl): DeliveryAttemptDto {
  return {
    id: a.id,
    object: 'webhook_delivery_attempt',
    created: unixSeconds(a.attempted_at)!,
    livemode: a.livemode,
    attempted_at: a.attempted_at.toISOString(),
    event_id: a.event_id,
    webhook_id: a.endpoint_id,
    url: a.url,
    run: a.run,
    attempt: a.attempt,
    succeeded: a.succeeded,
    status_code: a.status_code,
    error: a.error,
    duration_ms: a.duration_ms,
    next_retry_at: a.next_attempt_at?.toISOString() ?? null,
  };
}
