import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AppConfig } from 'src/core/config/app-config.service';
import { CLOCK_CHANNEL, ClockState, decodeClockState } from 'src/core/clock/clock-scope';
import { TestClockRepository } from 'src/core/clock/test-clock.repository';
import { NotificationListener } from 'src/core/database/notification-listener';

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
  private live = false;
  private readonly listener: NotificationListener;

  constructor(
    config: AppConfig,
    private readonly repository: TestClockRepository,
  ) {
    this.listener = new NotificationListener({
      connectionString: config.get('DATABASE_URL'),
      channels: [CLOCK_CHANNEL],
      logger: this.logger,
      subject: 'Test clock notifications',
      fallback: 'reading clocks from PostgreSQL',
      onNotification: (channel, payload) => {
        const state = channel === CLOCK_CHANNEL && payload ? decodeClockState(payload) : null;
        if (state) {
          this.apply(state);
        }
      },
      onListening: async () => {
        (await this.repository.all()).forEach((state) => this.apply(state));
        this.live = true;
      },
      onLost: () => {
        this.live = false;
        this.clocks.clear();
      },
    });
  }

  async onModuleInit(): Promise<void> {
    await this.listener.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.listener.stop();
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
}
