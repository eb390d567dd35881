import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { Client } from 'pg';
import type { EntityManager } from 'typeorm';
import { AppConfig } from 'src/core/config/app-config.service';
import { CLOCK_CHANNEL, ClockState, decodeClockState } from 'src/core/clock/clock-scope';
import { TestClockRepository } from 'src/core/clock/test-clock.repository';

const MAX_RECONNECT_MS = 30_000;

/**
 * This process's copy of every tenant's test clock, so reading "now" costs no database round trip.
 * It LISTENs on the clock channel before loading the table, and applies each change by version:
 * a notification and the load may arrive in either order and the newest state wins. While the
 * listening connection is down (start-up failure, database restart) the copy is not trusted and
 * reads go to PostgreSQL until it is back.
 */
@Injectable()
export class FrozenClocks implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('TestClock');
  private readonly clocks = new Map<string, ClockState>();
  private client: Client | undefined;
  private live = false;
  private stopped = false;
  private retryMs = 500;
  private retryTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly config: AppConfig,
    private readonly repository: TestClockRepository,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.connect();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    await this.disconnect();
  }

  /** The frozen time of a tenant's test clock, or null when it follows real time. */
  async frozenTime(tenantId: string, manager?: EntityManager): Promise<Date | null> {
    if (this.live) {
      return this.clocks.get(tenantId)?.frozenTime ?? null;
    }
    return (await this.repository.find(tenantId, manager))?.frozenTime ?? null;
  }

  /** Takes a state this process wrote itself, without waiting for its notification. */
  apply(state: ClockState): void {
    const known = this.clocks.get(state.tenantId);
    if (!known || known.version < state.version) {
      this.clocks.set(state.tenantId, state);
    }
  }

  private async connect(): Promise<void> {
    const client = new Client({ connectionString: this.config.get('DATABASE_URL') });
    this.client = client;
    client.on('notification', (message) => {
      const state =
        message.channel === CLOCK_CHANNEL && message.payload ? decodeClockState(message.payload) : null;
      if (state) {
        this.apply(state);
      }
    });
    client.on('error', (err: Error) => this.lost(client, err));
    client.on('end', () => this.lost(client, new Error('connection ended')));
    try {
      await client.connect();
      await client.query(`LISTEN ${CLOCK_CHANNEL}`);
      (await this.repository.all()).forEach((state) => this.apply(state));
      this.live = true;
      this.retryMs = 500;
    } catch (err) {
      this.lost(client, err as Error);
    }
  }

  private lost(client: Client, err: Error): void {
    if (client !== this.client) {
      return; // an old connection's late event
    }
    this.live = false;
    this.clocks.clear();
    this.client = undefined;
    void client.end().catch(() => undefined);
    if (this.stopped) {
      return;
    }
    this.logger.warn(
      `Test clock notifications lost (${err.message}); reading clocks from PostgreSQL until back`,
    );
    this.retryTimer = setTimeout(() => void this.connect(), this.retryMs);
    this.retryMs = Math.min(this.retryMs * 2, MAX_RECONNECT_MS);
  }

  private async disconnect(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.live = false;
    await client?.end().catch(() => undefined);
  }
}
