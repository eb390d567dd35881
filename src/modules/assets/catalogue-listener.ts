import { Injectable, Logger, OnModuleDestroy, OnModuleInit, Optional } from '@nestjs/common';
import { AppConfig } from 'src/core/config/app-config.service';
import { NotificationListener } from 'src/core/database/notification-listener';
import { AssetSearchCache } from 'src/modules/assets/asset-search-cache';
import { ChangeMarks } from 'src/core/database/replicas/change-marks';
import {
  CatalogueChange,
  CATALOGUE_CHANNEL,
  changeOfNotification,
  followLocalCatalogueChanges,
  OVERRIDES_CHANNEL,
} from 'src/modules/assets/catalogue-changes';

/**
 * Hears catalogue changes for the asset search cache: PostgreSQL notifications from every process
 * (migration 1763965000000) and the changes this process announces itself. Starts on the first
 * search, so processes that never search (worker, CLI) do not listen on the catalogue's channels.
 * The cache is trusted only from the moment LISTEN is in place until the connection fails;
 * meanwhile searches read PostgreSQL, and the connection is tried again with back-off.
 */
@Injectable()
export class CatalogueListener implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('AssetSearchCache');
  private started = false;
  private stopped = false;
  private stopFollowing: (() => void) | undefined;
  private readonly listener: NotificationListener;

  constructor(
    config: AppConfig,
    private readonly cache: AssetSearchCache,
    // Absent in the CLI, which reads nothing from replicas (no replica routing there).
    @Optional() private readonly marks?: ChangeMarks,
  ) {
    this.listener = new NotificationListener({
      connectionString: config.get('DATABASE_URL'),
      channels: [CATALOGUE_CHANNEL, OVERRIDES_CHANNEL],
      logger: this.logger,
      subject: 'Asset catalogue notifications',
      fallback: 'searching PostgreSQL',
      onNotification: (channel, payload) => {
        const change = changeOfNotification(channel, payload);
        if (change) {
          this.changed(change);
        }
      },
      onListening: () => {
        this.marks?.markEverything(); // what changed before LISTEN was in place may still be replaying
        this.cache.setLive(true);
      },
      onLost: () => this.cache.setLive(false),
    });
  }

  onModuleInit(): void {
    this.stopFollowing = followLocalCatalogueChanges((change) => this.changed(change));
  }

  /**
   * Drops what the change made stale. Reads on read replicas (and so the refills) then wait for
   * a replica that caught up after it: a refill from one still behind would keep the old catalogue.
   */
  private changed(change: CatalogueChange): void {
    this.marks?.markEverything();
    this.cache.apply(change);
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    this.stopFollowing?.();
    await this.listener.stop();
  }

  /** Starts listening if not yet started (the first search calls it). */
  ensureListening(): void {
    if (this.started || this.stopped) {
      return;
    }
    this.started = true;
    void this.listener.start();
  }
}
