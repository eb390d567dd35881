import type { Logger } from '@nestjs/common';
import { Client, Notification } from 'pg';

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
 * Notifications on some channels, for in-process copies kept fresh by them. What is kept may be
 * trusted only between onListening and onLost; a lost connection is tried again with doubling
 * back-off (up to 30 s) until stop(). Every listener of a process on one database shares one
 * connection (ListenConnection): PostgreSQL wakes each listening session of a database at every
 * commit that notifies, whatever the channel, so each extra LISTEN connection would cost the
 * server a wake-up per event, order and transfer committed by any process.
 */
export class NotificationListener {
  private connection: ListenConnection | undefined;
  private stopped = false;

  constructor(readonly options: NotificationListenerOptions) {}

  /** Resolves once the first attempt to listen has ended (listening, or lost and retrying). */
  async start(): Promise<void> {
    if (this.connection || this.stopped) {
      return;
    }
    this.connection = ListenConnection.to(this.options.connectionString);
    await this.connection.join(this);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const connection = this.connection;
    this.connection = undefined;
    this.options.onLost();
    await connection?.leave(this);
  }
}

/** The open LISTEN connection of each database URL in this process. */
const connections = new Map<string, ListenConnection>();

/**
 * One LISTEN connection shared by the listeners of a database: it listens on the union of their
 * channels, hands each notification to the listeners of its channel, and on loss tells every one
 * and reconnects for all. It closes when the last listener leaves (a channel stays listened to
 * until then; its notifications reach nobody).
 */
class ListenConnection {
  private client: Client | undefined;
  private opening: Promise<Client | undefined> | undefined;
  private readonly members = new Set<NotificationListener>();
  /** Members whose channels are listened to on the current client (LISTEN sent). */
  private admitted = new Set<NotificationListener>();
  private retryMs = FIRST_RETRY_MS;
  private retryTimer: NodeJS.Timeout | undefined;

  private constructor(private readonly url: string) {}

  static to(url: string): ListenConnection {
    let connection = connections.get(url);
    if (!connection) {
      connection = new ListenConnection(url);
      connections.set(url, connection);
    }
    return connection;
  }

  async join(member: NotificationListener): Promise<void> {
    this.members.add(member);
    const client = await this.open();
    if (client) {
      await this.admit(client, member);
    }
  }

  async leave(member: NotificationListener): Promise<void> {
    this.members.delete(member);
    this.admitted.delete(member);
    if (this.members.size > 0) {
      return;
    }
    clearTimeout(this.retryTimer);
    connections.delete(this.url);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  /** The connected client, connecting it if needed (one attempt shared by concurrent callers). */
  private open(): Promise<Client | undefined> {
    if (this.client && !this.opening) {
      return Promise.resolve(this.client);
    }
    this.opening ??= this.connect().finally(() => (this.opening = undefined));
    return this.opening;
  }

  private async connect(): Promise<Client | undefined> {
    const client = new Client({ connectionString: this.url, keepAlive: true });
    this.client = client;
    this.admitted = new Set();
    client.on('notification', (message) => {
      if (client === this.client) {
        this.dispatch(message);
      }
    });
    client.on('error', (err: Error) => this.lost(client, err));
    client.on('end', () => this.lost(client, new Error('connection ended')));
    try {
      await client.connect();
    } catch (err) {
      this.lost(client, err as Error);
      return undefined;
    }
    if (client !== this.client) {
      await client.end().catch(() => undefined); // every listener left while connecting
      return undefined;
    }
    return client;
  }

  /** LISTENs on the member's channels, then lets it load what it keeps. */
  private async admit(client: Client, member: NotificationListener): Promise<void> {
    if (this.admitted.has(member)) {
      return;
    }
    this.admitted.add(member);
    try {
      await client.query(member.options.channels.map((channel) => `LISTEN ${channel}`).join('; '));
      if (client !== this.client || !this.members.has(member)) {
        return;
      }
      await member.options.onListening();
      this.retryMs = FIRST_RETRY_MS;
    } catch (err) {
      this.lost(client, err as Error);
    }
  }

  private dispatch(message: Notification): void {
    for (const member of this.members) {
      if (member.options.channels.includes(message.channel)) {
        member.options.onNotification(message.channel, message.payload);
      }
    }
  }

  private lost(client: Client, err: Error): void {
    if (client !== this.client) {
      return; // an old connection's late event
    }
    this.client = undefined;
    this.admitted = new Set();
    void client.end().catch(() => undefined);
    for (const member of this.members) {
      member.options.onLost();
      member.options.logger.warn(
        `${member.options.subject} lost (${err.message}); ${member.options.fallback} until back`,
      );
    }
    if (this.members.size === 0) {
      return;
    }
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => void this.reconnect(), this.retryMs);
    this.retryTimer.unref();
    this.retryMs = Math.min(this.retryMs * 2, MAX_RECONNECT_MS);
  }

  private async reconnect(): Promise<void> {
    const client = await this.open();
    for (const member of [...this.members]) {
      if (!client || client !== this.client) {
        return;
      }
      await this.admit(client, member);
    }
  }
}
