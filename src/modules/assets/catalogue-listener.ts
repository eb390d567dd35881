import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { Client } from 'pg';
import { AppConfig } from 'src/core/config/app-config.service';
import { AssetSearchCache } from 'src/modules/assets/asset-search-cache';
import {
  CATALOGUE_CHANNEL,
  changeOfNotification,
  followLocalCatalogueChanges,
  OVERRIDES_CHANNEL,
} from 'src/modules/assets/catalogue-changes';

const MAX_RECONNECT_MS = 30_000;

/**
 * Hears catalogue changes for the asset search cache: PostgreSQL notifications from every process
 * (migration 1763965000000) and the changes this process announces itself. Starts on the first
 * search, so processes that never search (worker, CLI) hold no listening connection. The cache is
 * trusted only from the moment LISTEN is in place until the connection fails; meanwhile searches
 * read PostgreSQL, and the connection is tried again with back-off.
 */
@Injectable()
export class CatalogueListener implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('AssetSearchCache');
  private client: Client | undefined;
  private started = false;
  private stopped = false;
  private retryMs = 500;
  private retryTimer: NodeJS.Timeout | undefined;
  private stopFollowing: (() => void) | undefined;

  constructor(
    private readonly config: AppConfig,
    private readonly cache: AssetSearchCache,
  ) {}

  onModuleInit(): void {
    this.stopFollowing = followLocalCatalogueChanges((change) => this.cache.apply(change));
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    this.stopFollowing?.();
    clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = undefined;
    this.cache.setLive(false);
    await client?.end().catch(() => undefined);
  }

  /** Starts listening if not yet started (the first search calls it). */
  ensureListening(): void {
    if (this.started || this.stopped) {
      return;
    }
    this.started = true;
    void this.connect();
  }

  private async connect(): Promise<void> {
    const client = new Client({ connectionString: this.config.get('DATABASE_URL'), keepAlive: true });
    this.client = client;
    client.on('notification', (message) => {
      const change = changeOfNotification(message.channel, message.payload);
      if (change && client === this.client) {
        this.cache.apply(change);
      }
    });
    client.on('error', (err: Error) => this.lost(client, err));
    client.on('end', () => this.lost(client, new Error('connection ended')));
    try {
      await client.connect();
      await client.query(`LISTEN ${CATALOGUE_CHANNEL}; LISTEN ${OVERRIDES_CHANNEL}`);
      if (client !== this.client) {
        await client.end(); // stopped while connecting
        return;
      }
      this.cache.setLive(true);
      this.retryMs = 500;
    } catch (err) {
      this.lost(client, err as Error);
    }
  }

  private lost(client: Client, err: Error): void {
    if (client !== this.client) {
      return; // an old connection's late event
    }
    this.client = undefined;
    this.cache.setLive(false);
    void client.end().catch(() => undefined);
    if (this.stopped) {
      return;
    }
    this.logger.warn(`Asset catalogue notifications lost (${err.message}); searching PostgreSQL until back`);
    this.retryTimer = setTimeout(() => void this.connect(), this.retryMs);
    this.retryTimer.unref();
    this.retryMs = Math.min(this.retryMs * 2, MAX_RECONNECT_MS);
  }
}
