import type { Logger } from '@nestjs/common';
import { Client } from 'pg';

const FIRST_RETRY_MS = 500;
const MAX_RECONNECT_MS = 30_000;

export interface NotificationListenerOptions {
  connectionString: string;
  channels: string[];
  logger: Logger;
  /** What the warning says is lost and what happens meanwhile, e.g. "Test clock notifications". */
  subject: string;
  fallback: string;
  onNotification(channel: string, payload: string | undefined): void;
  /** Runs once LISTEN is in place (load the state to keep here); a throw counts as a lost connection. */
  onListening(): Promise<void> | void;
  /** The connection is gone: stop trusting what was kept until onListening runs again. */
  onLost(): void;
}

/**
 * A dedicated PostgreSQL connection LISTENing on some channels, for in-process copies kept fresh by
 * notifications. What is kept may be trusted only between onListening and onLost; a lost
 * connection is tried again with doubling back-off (up to 30 s) until stop().
 */
export class NotificationListener {
  private client: Client | undefined;
  private stopped = false;
  private retryMs = FIRST_RETRY_MS;
  private retryTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: NotificationListenerOptions) {}

  async start(): Promise<void> {
    const client = new Client({ connectionString: this.options.connectionString, keepAlive: true });
    this.client = client;
    client.on('notification', (message) => {
      if (client === this.client) {
        this.options.onNotification(message.channel, message.payload);
      }
    });
    client.on('error', (err: Error) => this.lost(client, err));
    client.on('end', () => this.lost(client, new Error('connection ended')));
    try {
      await client.connect();
      await client.query(this.options.channels.map((channel) => `LISTEN ${channel}`).join('; '));
      if (client !== this.client) {
        await client.end(); // stopped while connecting
        return;
      }
      await this.options.onListening();
      this.retryMs = FIRST_RETRY_MS;
    } catch (err) {
      this.lost(client, err as Error);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = undefined;
    this.options.onLost();
    await client?.end().catch(() => undefined);
  }

  private lost(client: Client, err: Error): void {
    if (client !== this.client) {
      return; // an old connection's late event
    }
    this.client = undefined;
    this.options.onLost();
    void client.end().catch(() => undefined);
    if (this.stopped) {
      return;
    }
    this.options.logger.warn(
      `${this.options.subject} lost (${err.message}); ${this.options.fallback} until back`,
    );
    this.retryTimer = setTimeout(() => void this.start(), this.retryMs);
    this.retryTimer.unref();
    this.retryMs = Math.min(this.retryMs * 2, MAX_RECONNECT_MS);
  }
}
