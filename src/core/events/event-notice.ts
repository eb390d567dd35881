import type { EventEntity } from 'src/core/events/event.entity';

/** The PostgreSQL channel every committed event is announced on (NOTIFY in the emitting transaction). */
export const EVENTS_CHANNEL = 'outbox_events';

/**
 * PostgreSQL refuses a NOTIFY payload of 8000 bytes or more (and the transaction with it): an
 * event whose record does not fit travels as a reference, read back by id where it is needed.
 */
const MAX_PAYLOAD_BYTES = 7_900;

/** What a notification says about one committed event. */
export interface EventNotice {
  id: string;
  tenant_id: string;
  livemode: boolean;
  event: string;
  created_at: string;
  /** Set on test events (one endpoint only); such events are not streamed. */
  endpoint_id: string | null;
  /** The event's data, absent when the record was too large for a notification. */
  data?: Record<string, unknown>;
}

export function encodeNotice(event: EventEntity): string {
  const notice: EventNotice = {
    id: event.id,
    tenant_id: event.tenant_id,
    livemode: event.livemode,
    event: event.event,
    created_at: event.created_at.toISOString(),
    endpoint_id: event.endpoint_id,
    data: event.data,
  };
  const full = JSON.stringify(notice);
  if (Buffer.byteLength(full) <= MAX_PAYLOAD_BYTES) {
    return full;
  }
  return JSON.stringify({ ...notice, data: undefined });
}

/** The notice of a payload, or null when the payload is not one (another writer on the channel). */
export function decodeNotice(payload: string | undefined): EventNotice | null {
  if (!payload) {
    return null;
  }
  try {
    const notice = JSON.parse(payload) as EventNotice;
    const valid =
      typeof notice.id === 'string' &&
      typeof notice.tenant_id === 'string' &&
      typeof notice.livemode === 'boolean' &&
      typeof notice.event === 'string' &&
      typeof notice.created_at === 'string';
    return valid ? notice : null;
  } catch {
    return null;
  }
}
