import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { Principal } from 'src/core/auth/principal';
import { ServiceError } from 'src/core/errors/service-error';
import { isEventFilter } from 'src/core/events/event-patterns';
import { EventEntity } from 'src/core/events/event.entity';
import { EventPayload, EventsService } from 'src/core/events/events.service';
import { ListEnvelope, toList } from 'src/core/http/envelope';
import { paginateByCursor } from 'src/core/http/pagination';
import { isIdOf } from 'src/core/ids/ids';
import { ListEventsQuery } from 'src/modules/events/dto/list-events.query';

const RANGE_OPERATORS = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

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
    for (const [key, value] of Object.entries(query.created ?? {})) {
      const op = RANGE_OPERATORS[key as keyof typeof RANGE_OPERATORS];
      const param = `created[${key}]`;
      if (!op) {
        throw ServiceError.invalid(
          param,
          `Unknown filter ${param}: use created[gte], created[gt], created[lte] or created[lt].`,
        );
      }
      if (typeof value !== 'string' || !/^\d{1,12}$/.test(value)) {
        throw ServiceError.invalid(param, `Invalid ${param}: must be a Unix time in seconds.`);
      }
      // Seconds bound inclusive of the whole second for lte/gt; created_at carries milliseconds.
      const bound = new Date(Number(value) * 1000 + (key === 'lte' || key === 'gt' ? 999 : 0));
      qb.andWhere(`e.created_at ${op} :${key}Bound`, { [`${key}Bound`]: bound });
    }
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
