import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import type { Principal } from 'src/core/auth/principal';
import { AppConfig } from 'src/core/config/app-config.service';
import { ServiceError } from 'src/core/errors/service-error';
import { EventNotifications } from 'src/core/events/event-notifications';
import { isEventPattern } from 'src/core/events/event-patterns';
import { isIdOf, newUuid } from 'src/core/ids/ids';
import { safeErrorMessage } from 'src/core/logging/safe-errors';
import { EventStream } from 'src/modules/events/stream/event-stream';
import {
  EventStreamsUnavailableError,
  TooManyEventStreamsError,
} from 'src/modules/events/stream/event-stream-errors';
import { EventStreamReader } from 'src/modules/events/stream/event-stream.reader';
import type { StreamCursor, StreamScope } from 'src/modules/events/stream/stream-scope';
import { StreamSlots } from 'src/modules/events/stream/stream-slots';
import type { StreamEventsQuery } from 'src/modules/events/dto/stream-events.query';

/** How long a client should wait before trying again when its key holds every stream slot. */
const SLOTS_FULL_RETRY_AFTER_S = 5;

/**
 * Opens GET /v1/events/stream: checks the filters and the replay anchor, takes one of the key's
 * stream slots, then hands the response to an EventStream fed by this process's notifications.
 */
@Injectable()
export class EventStreamsService implements OnModuleDestroy {
  private readonly logger = new Logger('EventStreams');
  private readonly streams = new Set<EventStream>();

  constructor(
    private readonly reader: EventStreamReader,
    private readonly slots: StreamSlots,
    private readonly notifications: EventNotifications,
    private readonly config: AppConfig,
  ) {}

  async open(
    principal: Principal,
    query: StreamEventsQuery,
    lastEventId: string | undefined,
    res: ServerResponse,
  ): Promise<void> {
    const scope: StreamScope = {
      tenantId: principal.tenantId,
      livemode: principal.livemode,
      investorId: principal.investorId,
      types: parseTypes(query.types),
    };
    const sinceId = lastEventId?.trim() || query.since_id;
    const anchor = sinceId === undefined ? null : await this.anchor(scope, sinceId);
    const streamId = newUuid();
    await this.takeSlot(principal.keyId, streamId);

    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    res.write('retry: 1000\n\n');
    const release = () => void this.slots.release(principal.keyId, streamId).catch(() => undefined);
    let unsubscribe: () => void = () => undefined;
    const stream = new EventStream(res, scope, this.reader, anchor ?? { createdAt: new Date(), id: '' }, {
      heartbeatMs: this.config.get('EVENT_STREAM_HEARTBEAT_MS'),
      bufferBytes: this.config.get('EVENT_STREAM_BUFFER_BYTES'),
      onHeartbeat: () => void this.slots.renew(principal.keyId, streamId).catch(() => undefined),
      onClose: () => {
        this.streams.delete(stream);
        unsubscribe();
        release();
      },
    });
    this.streams.add(stream);
    if (!res.socket || res.socket.destroyed) {
      stream.close('the client left'); // gone while the stream was being set up
    }
    unsubscribe = await this.notifications.subscribe(stream);
    if (stream.isClosed) {
      unsubscribe();
      return;
    }
    await stream.replay(anchor).catch((err: unknown) => {
      this.logger.warn(`Event stream replay failed: ${safeErrorMessage(err)}`);
      stream.close('the replay could not be read; reconnect with Last-Event-ID to resume');
    });
  }

  onModuleDestroy(): void {
    for (const stream of [...this.streams]) {
      stream.close('the server is restarting; reconnect with Last-Event-ID to resume');
    }
  }

  private async anchor(scope: StreamScope, sinceId: string): Promise<StreamCursor> {
    const anchor = isIdOf('event', sinceId) ? await this.reader.anchor(scope, sinceId) : null;
    if (!anchor) {
      throw ServiceError.invalid(
        'since_id',
        `No event '${sinceId}' this key can read: give the id of an event listed by GET /v1/events (Last-Event-ID or since_id).`,
      );
    }
    return anchor;
  }

  private async takeSlot(keyId: string, streamId: string): Promise<void> {
    let taken: boolean;
    try {
      taken = await this.slots.take(keyId, streamId);
    } catch (err) {
      this.logger.warn(`Event stream slots unavailable: ${safeErrorMessage(err)}`);
      throw new EventStreamsUnavailableError();
    }
    if (!taken) {
      throw new TooManyEventStreamsError(this.slots.max, SLOTS_FULL_RETRY_AFTER_S);
    }
  }
}

/** `types` as its patterns (null for all); an empty or unknown one is 400 naming `types`. */
function parseTypes(types: string | undefined): string[] | null {
  if (types === undefined) {
    return null;
  }
  const patterns = types.split(',').map((t) => t.trim());
  const unknown = patterns.find((p) => !isEventPattern(p));
  if (unknown !== undefined) {
    throw ServiceError.invalid(
      'types',
      `Unknown event type '${unknown}' in types. Use comma-separated names from GET /v1/webhooks/event-types or wildcards such as order.*.`,
    );
  }
  return patterns;
}
