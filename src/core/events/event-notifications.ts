import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { AppConfig } from 'src/core/config/app-config.service';
import { NotificationListener } from 'src/core/database/notification-listener';
import { decodeNotice, EVENTS_CHANNEL, EventNotice } from 'src/core/events/event-notice';

/** What a part of this process does with committed events. */
export interface EventSubscriber {
  /** One committed event, in commit order. */
  onEvent(notice: EventNotice): void;
  /**
   * Notifications may have been missed (the listening connection was down, or is not up yet):
   * look in the outbox table for what was committed meanwhile. Called after every (re)connection,
   * and once a second while the connection is down.
   */
  onResync(): void;
}

const FALLBACK_POLL_MS = 1_000;

/**
 * This process's listening for committed events (NOTIFY is sent in the emitting transaction, so it
 * arrives only once that transaction commits, and never for a rollback), on the process's one
 * LISTEN connection (NotificationListener). It starts with the first subscriber (the outbox relay
 * where queue consumers run, an open event stream in the API), so a process with neither does
 * not listen for events.
 */
@Injectable()
export class EventNotifications implements OnModuleDestroy {
  private readonly logger = new Logger('EventNotifications');
  private readonly subscribers = new Set<EventSubscriber>();
  private readonly listener: NotificationListener;
  private started = false;
  private live = false;
  private fallbackTimer: NodeJS.Timeout | undefined;

  constructor(config: AppConfig) {
    this.listener = new NotificationListener({
      connectionString: config.get('DATABASE_URL'),
      channels: [EVENTS_CHANNEL],
      logger: this.logger,
      subject: 'Event notifications',
      fallback: 'looking for new events every second',
      onNotification: (channel, payload) => {
        const notice = channel === EVENTS_CHANNEL ? decodeNotice(payload) : null;
        if (notice) {
          this.subscribers.forEach((s) => s.onEvent(notice));
        }
      },
      onListening: () => {
        this.live = true;
        clearInterval(this.fallbackTimer);
        this.fallbackTimer = undefined;
        this.subscribers.forEach((s) => s.onResync());
      },
      onLost: () => {
        this.live = false;
        this.pollWhileDown();
      },
    });
  }

  /** Whether notifications are flowing now (a subscriber may rely on them alone). */
  get listening(): boolean {
    return this.live;
  }

  /** Adds a subscriber; resolves once the first attempt to listen has ended. Returns the unsubscribe. */
  async subscribe(subscriber: EventSubscriber): Promise<() => void> {
    this.subscribers.add(subscriber);
    if (!this.started) {
      this.started = true;
      await this.listener.start();
    }
    return () => this.subscribers.delete(subscriber);
  }

  async onModuleDestroy(): Promise<void> {
    this.subscribers.clear();
    clearInterval(this.fallbackTimer);
    if (this.started) {
      await this.listener.stop();
    }
  }

  private pollWhileDown(): void {
    if (this.fallbackTimer || this.subscribers.size === 0) {
      return;
    }
    this.fallbackTimer = setInterval(() => {
      if (this.live) {
        clearInterval(this.fallbackTimer);
        this.fallbackTimer = undefined;
        return;
      }
      this.subscribers.forEach((s) => s.onResync());
    }, FALLBACK_POLL_MS);
    this.fallbackTimer.unref();
  }
}
