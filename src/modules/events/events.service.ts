import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { Principal } from 'src/core/auth/principal';
import { ServiceError } from 'src/core/errors/service-error';
import { isEventFilter } from 'src/core/events/event-patterns';
import { EventEntity } from 'src/core/events/event.entity';
import { EventPayload, EventsService } from 'src/core/events/events.service';
import { applyCreatedRange } from 'src/core/http/created-range';
import { ListEnvelope, toList } from 'src/core/http/envelope';
import { paginateByCursor } from 'src/core/http/pagination';
import { isIdOf } from 'src/core/ids/ids';
import { ListEventsQuery } from 'src/modules/events/dto/list-events.query';

/** Read side of the outbox for partners: the event list and single events, scoped to tenant and mode. */
@Injectable()
export class EventsReadService {
  constructor(@InjectRepository(EventEntity) private readonly events: Repository<EventEntity>) {}

  async list(principal: Principal, query: ListEventsQuery, url: string): Promise<ListEnvelope<EventPayload>> {
    const qb = this.events
      .createQueryBuilder('e')
      .where('e.tenant_id = :tenantId AND e.livemode = :livemode', {
        tenantId: principal.tenantId,
        livemode: principal.livemode,
      });
    if (query.event !== undefined) {
      if (!isEventFilter(query.event)) {
        throw ServiceError.invalid(
          'event',
          `Unknown event type '${query.event}'. Use a name from GET /v1/webhooks/event-types or a wildcard such as order.*.`,
        );
      }
      if (query.event.endsWith('*')) {
        if (query.event !== '*') {
          qb.andWhere('e.event LIKE :prefix', { prefix: `${query.event.slice(0, -1)}%` });
        }
      } else {
        qb.andWhere('e.event = :event', { event: query.event });
      }
    }
    applyCreatedRange(qb, query.created);
    const page = await paginateByCursor(qb, query);
    return toList(url, page.data.map(EventsService.toPayload), page.hasMore);
  }

  async get(principal: Principal, id: string): Promise<EventPayload> {
    const event = isIdOf('event', id)
      ? await this.events.findOneBy({ id, tenant_id: principal.tenantId, livemode: principal.livemode })
      : null;
    if (!event) {
      throw ServiceError.notFound('event', id);
    }
    return EventsService.toPayload(event);
  }
}
