import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { WriteBatch } from 'src/core/database/write-batch';
import { EventEntity } from 'src/core/events/event.entity';
import { encodeNotice, EVENTS_CHANNEL } from 'src/core/events/event-notice';
import { EventName, WEBHOOK_TEST_EVENT } from 'src/core/events/event-types';
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
 * The outbox row and its announcement in one statement: the NOTIFY queued by pg_notify is
 * delivered to listeners only when the transaction commits (never on a rollback), so the relay and
 * the event streams of every process hear of the event the moment it is committed.
 */
const INSERT_EVENT =
  'INSERT INTO "events" ("id", "tenant_id", "livemode", "event", "data", "created_at", "endpoint_id") ' +
  `VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING "id", pg_notify('${EVENTS_CHANNEL}', $8)::text AS "notified"`;

/**
 * Emitting an event is one call inside the caller's transaction: the row commits or rolls
 * back with the change it reports (transactional outbox). Delivery happens after commit.
 */
@Injectable()
export class EventsService {
  async emit(manager: EntityManager, input: EmitInput): Promise<EventEntity> {
    const event = this.newEvent(input);
    // One plain INSERT: every state-changing request writes an event, so the query builder's
    // per-call work is skipped here.
    await manager.query(INSERT_EVENT, this.insertParams(event));
    return event;
  }

  /**
   * emit() for many events in one statement (a batch job's events: one round trip, not one per
   * event), each announced as emit() announces it.
   */
  async emitMany(manager: EntityManager, inputs: EmitInput[]): Promise<EventEntity[]> {
    if (inputs.length === 0) {
      return [];
    }
    const events = inputs.map((input) => this.newEvent(input));
    await manager.query(
      `WITH e AS (
         SELECT * FROM unnest($1::text[], $2::text[], $3::boolean[], $4::text[], $5::jsonb[], $6::timestamptz[],
           $7::text[]) AS e(id, tenant_id, livemode, event, data, created_at, notice)
       ), inserted AS (
         INSERT INTO "events" ("id", "tenant_id", "livemode", "event", "data", "created_at", "endpoint_id")
         SELECT id, tenant_id, livemode, event, data, created_at, NULL FROM e RETURNING "id"
       )
       SELECT (SELECT count(*) FROM inserted)::int AS inserted, count(pg_notify('${EVENTS_CHANNEL}', e.notice))::int
         AS notified FROM e`,
      [
        events.map((e) => e.id),
        events.map((e) => e.tenant_id),
        events.map((e) => e.livemode),
        events.map((e) => e.event),
        events.map((e) => JSON.stringify(e.data)),
        events.map((e) => e.created_at),
        events.map((e) => encodeNotice(e)),
      ],
    );
    return events;
  }

  /** emit() as a statement of the caller's batch: the row is written when the batch runs. */
  emitInto(batch: WriteBatch, input: EmitInput): EventEntity {
    const event = this.newEvent(input);
    batch.add({
      sql: INSERT_EVENT,
      params: this.insertParams(event),
      changes: { table: 'events', key: event.id },
    });
    return event;
  }

  private newEvent(input: EmitInput): EventEntity {
    const event = new EventEntity();
    event.id = newId('event');
    event.tenant_id = input.tenantId;
    event.livemode = input.livemode;
    event.event = input.event;
    event.data = input.data;
    event.created_at = new Date();
    event.relayed_at = null;
    event.endpoint_id = null;
    return event;
  }

  private insertParams(event: EventEntity): unknown[] {
    return [
      event.id,
      event.tenant_id,
      event.livemode,
      event.event,
      JSON.stringify(event.data),
      event.created_at,
      event.endpoint_id,
      encodeNotice(event),
    ];
  }

  /**
   * A `webhook.test` event for one endpoint only (sandbox test helper). It goes through the
   * outbox and the delivery queue like any other event.
   */
  async emitTestEvent(
    manager: EntityManager,
    input: { tenantId: string; livemode: boolean; endpointId: string; data: Record<string, unknown> },
  ): Promise<EventEntity> {
    const event = manager.create(EventEntity, {
      id: newId('event'),
      tenant_id: input.tenantId,
      livemode: input.livemode,
      event: WEBHOOK_TEST_EVENT,
      data: input.data,
      created_at: new Date(),
      relayed_at: null,
      endpoint_id: input.endpointId,
    });
    await manager.query(INSERT_EVENT, this.insertParams(event));
    return event;
  }

  /**
   * Locks up to `limit` committed events not yet handed to the queue, oldest first. Rows another
   * relay holds are skipped, so several relays can run at once. Call inside a transaction and
   * `markRelayed` before it commits; a relay that dies first leaves the rows for the next one.
   */
  async claimUnrelayed(manager: EntityManager, limit: number): Promise<EventEntity[]> {
    return manager
      .createQueryBuilder(EventEntity, 'e')
      .where('e.relayed_at IS NULL')
      .orderBy('e.created_at', 'ASC')
      .limit(limit)
      .setLock('pessimistic_write')
      .setOnLocked('skip_locked')
      .getMany();
  }

  async markRelayed(manager: EntityManager, ids: string[]): Promise<void> {
    if (ids.length > 0) {
      await manager.query('UPDATE "events" SET "relayed_at" = now() WHERE "id" = ANY($1)', [ids]);
    }
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
