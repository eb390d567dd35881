import type { ServerResponse } from 'node:http';
import type { EventNotice } from 'src/core/events/event-notice';
import type { EventSubscriber } from 'src/core/events/event-notifications';
import { EventEntity } from 'src/core/events/event.entity';
import { EventsService } from 'src/core/events/events.service';
import type { EventStreamReader } from 'src/modules/events/stream/event-stream.reader';
import { noticeMatches, StreamCursor, StreamScope } from 'src/modules/events/stream/stream-scope';

const REPLAY_PAGE = 200;
/** After a lost notification, the outbox is read again from this far before the last event sent. */
const RESYNC_LOOKBACK_MS = 5_000;
/** Ids already sent, so a replay overlapping live notices or a re-read sends no event twice. */
const REMEMBERED_IDS = 10_000;

export interface EventStreamOptions {
  heartbeatMs: number;
  bufferBytes: number;
  /** Called with each heartbeat (renew the stream's slot). */
  onHeartbeat(): void;
  /** Called once, when the stream has closed for any reason. */
  onClose(): void;
}

/**
 * One open Server-Sent Events stream. Events reach it in commit order from the process's
 * notifications; a replay (after Last-Event-ID / since_id) reads the outbox first while live
 * notices wait, and ids already sent are skipped. A reader that falls behind by more than
 * `bufferBytes` gets a closing comment and the end of the stream, so memory stays bounded; it
 * resumes with its last id.
 */
export class EventStream implements EventSubscriber {
  private readonly waiting: EventNotice[] = [];
  private waitingBytes = 0;
  private readonly sent = new Set<string>();
  private replaying = true;
  private pumping = false;
  private resyncWanted = false;
  private closed = false;
  private lastSent: StreamCursor | null = null;
  private readonly heartbeat: NodeJS.Timeout;
  private stopWaiting: (() => void) | undefined;

  constructor(
    private readonly res: ServerResponse,
    private readonly scope: StreamScope,
    private readonly reader: EventStreamReader,
    /** Nothing created before this is sent on a re-read (the stream's start, or its replay anchor). */
    private readonly floor: StreamCursor,
    private readonly options: EventStreamOptions,
  ) {
    res.on('close', () => this.finish());
    this.heartbeat = setInterval(() => {
      this.write(': heartbeat\n\n');
      options.onHeartbeat();
    }, options.heartbeatMs);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Sends what came after `anchor` (null: nothing), then goes live with what arrived meanwhile. */
  async replay(anchor: StreamCursor | null): Promise<void> {
    let cursor = anchor;
    while (cursor && !this.closed) {
      const page = await this.reader.after(this.scope, cursor, REPLAY_PAGE);
      page.forEach((event) => this.send(event));
      cursor = page.length === REPLAY_PAGE ? this.lastSent : null;
      if (this.res.writableLength > this.options.bufferBytes / 2) {
        await this.drained();
      }
    }
    this.replaying = false;
    if (this.resyncWanted) {
      this.onResync();
    }
    void this.pump();
  }

  onEvent(notice: EventNotice): void {
    // A notice without data (too large to notify) is checked against the investor once read.
    const matches = noticeMatches(notice.data ? this.scope : { ...this.scope, investorId: null }, notice);
    if (this.closed || !matches) {
      return;
    }
    this.waiting.push(notice);
    this.waitingBytes += sizeOf(notice);
    if (this.waitingBytes + this.res.writableLength > this.options.bufferBytes) {
      this.overflow();
      return;
    }
    void this.pump();
  }

  /** Reads the outbox again from shortly before the last event sent (notifications may be lost). */
  onResync(): void {
    if (this.closed) {
      return;
    }
    if (this.replaying) {
      this.resyncWanted = true;
      return;
    }
    this.resyncWanted = false;
    const from = this.lastSent ?? this.floor;
    const since = { createdAt: new Date(from.createdAt.getTime() - RESYNC_LOOKBACK_MS), id: '' };
    void this.reader.after(this.scope, since, REPLAY_PAGE * 5, this.floor.createdAt).then(
      (events) => events.forEach((event) => this.onEvent(noticeOf(event))),
      () => undefined, // the next resync (or notification) tries again
    );
  }

  /**
   * Ends the stream with a comment saying why. A reader that does not take even that within
   * 30 s loses the connection, so its unread bytes are freed too.
   */
  close(reason: string): void {
    if (!this.closed) {
      this.res.end(`: closing: ${reason}\n\n`);
      const abandon = setTimeout(() => this.res.destroy(), 30_000);
      abandon.unref();
      this.res.once('close', () => clearTimeout(abandon));
      this.finish();
    }
  }

  /** Writes waiting notices in order; those too large for a notification are read by id first. */
  private async pump(): Promise<void> {
    if (this.pumping || this.replaying) {
      return;
    }
    this.pumping = true;
    try {
      while (this.waiting.length > 0 && !this.closed) {
        const notice = this.waiting.shift() as EventNotice;
        this.waitingBytes -= sizeOf(notice);
        if (this.sent.has(notice.id)) {
          continue;
        }
        const event = notice.data ? entityOf(notice) : await this.reader.byId(notice.id).catch(() => null);
        if (event && noticeMatches(this.scope, noticeOf(event))) {
          this.send(event);
        }
      }
    } finally {
      this.pumping = false;
    }
  }

  private send(event: EventEntity): void {
    if (this.sent.has(event.id)) {
      return;
    }
    this.remember(event.id);
    this.lastSent = { createdAt: event.created_at, id: event.id };
    const payload = JSON.stringify(EventsService.toPayload(event));
    this.write(`id: ${event.id}\nevent: ${event.event}\ndata: ${payload}\n\n`);
    if (!this.replaying && this.res.writableLength > this.options.bufferBytes) {
      this.overflow();
    }
  }

  private write(text: string): void {
    if (!this.closed) {
      this.res.write(text);
    }
  }

  private overflow(): void {
    const resume = this.lastSent ? ` from ${this.lastSent.id}` : '';
    this.close(
      `this stream fell more than ${this.options.bufferBytes} bytes behind; reconnect with Last-Event-ID to resume${resume}`,
    );
  }

  private remember(id: string): void {
    this.sent.add(id);
    if (this.sent.size > REMEMBERED_IDS) {
      this.sent.delete(this.sent.values().next().value as string);
    }
  }

  /** Resolves when the reader has taken the bytes written so far, or the stream closed. */
  private drained(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.res.off('drain', done);
        this.stopWaiting = undefined;
        resolve();
      };
      this.stopWaiting = done;
      this.res.on('drain', done);
    });
  }

  private finish(): void {
    if (this.closed) {
      return;
    }
    this.closed = true;
    clearInterval(this.heartbeat);
    this.waiting.length = 0;
    this.stopWaiting?.();
    this.options.onClose();
  }
}

/** About what a waiting notice costs in memory, for the reader's bound. */
function sizeOf(notice: EventNotice): number {
  return 200 + (notice.data ? JSON.stringify(notice.data).length : 0);
}

function noticeOf(event: EventEntity): EventNotice {
  return {
    id: event.id,
    tenant_id: event.tenant_id,
    livemode: event.livemode,
    event: event.event,
    created_at: event.created_at.toISOString(),
    endpoint_id: event.endpoint_id,
    data: event.data,
  };
}

function entityOf(notice: EventNotice): EventEntity {
  const event = new EventEntity();
  event.id = notice.id;
  event.tenant_id = notice.tenant_id;
  event.livemode = notice.livemode;
  event.event = notice.event;
  event.data = notice.data ?? {};
  event.created_at = new Date(notice.created_at);
  event.relayed_at = null;
  event.endpoint_id = notice.endpoint_id;
  return event;
}
