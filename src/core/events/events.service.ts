import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { EventEntity } from 'src/core/events/event.entity';
import type { EventName } from 'src/core/events/event-types';
import { newId } from 'src/core/ids/ids';

export interface EmitInput {
  tenantId: string;
  livemode: boolean;
  event: EventName;
  data: Record<string, unknown>;
}

/** The event record partners receive and list: `{id, object, event, timestamp, livemode, data}`. */
export interface EventPayload {
  id: string;
  object: 'event';
  event: string;
  timestamp: string;
  livemode: boolean;
  data: Record<string, unknown>;
}

/**
 * Emitting an event is one call inside the caller's transaction: the row commits or rolls
 * back with the change it reports (transactional outbox). Delivery happens after commit.
 */
@Injectable()
export class EventsService {
  async emit(manager: EntityManager, input: EmitInput): Promise<EventEntity> {
    const event = manager.create(EventEntity, {
      id: newId('event'),
      tenant_id: input.tenantId,
      livemode: input.livemode,
      event: input.event,
      data: input.data,
      created_at: new Date(),
      relayed_at: null,
    });
    return manager.save(event);
  }

  static toPayload(event: EventEntity): EventPayload {
    return {
      id: event.id,
      object: 'event',
      event: event.event,
      timestamp: event.created_at.toISOString(),
      livemode: event.livemode,
      data: event.data,
    };
  }
}
