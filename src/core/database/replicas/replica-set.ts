import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from 'src/core/config/app-config.service';
import { SafeQueryLogger } from 'src/core/database/query-logger';
import { parseLsn } from 'src/core/database/replicas/lsn';

/** How often each replica's replay position is compared with the primary's. */
export const REPLICA_POLL_MS = 200;

/** One read replica as this process sees it. */
export interface Replica {
  /** Position in DATABASE_REPLICA_URLS (its URL may hold a password, so it is never shown). */
  index: number;
  dataSource: DataSource;
  /** WAL position replayed at the last poll. */
  replayed: bigint;
  /** When the poll that last found it caught up began (before it read the primary's position). */
  caughtUpAt: number;
  /** Whether the last poll reached it. */
  reachable: boolean;
  /** Reads it has served in this process. */
  reads: number;
}

export type ReplicaState = 'in_use' | 'lagging' | 'unreachable';

/**
 * The read replicas of DATABASE_REPLICA_URLS and how far behind each is. Every REPLICA_POLL_MS
 * the primary's WAL position is read, then each replica's replayed position: a replica that has
 * replayed what the primary had written is caught up at that moment. Its lag is the time since
 * it was last caught up, so a replica that stopped replaying (or lost the primary) shows its lag
 * growing even while its own figures look still. A replica more than DATABASE_REPLICA_MAX_LAG_MS
 * behind, or unreachable, serves nothing until it has caught up again.
 */
@Injectable()
export class ReplicaSet implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Replicas');
  readonly replicas: Replica[];
  private readonly maxLagMs: number;
  private timer: NodeJS.Timeout | undefined;
  private polling = false;
  private next = 0;

  constructor(
    config: AppConfig,
    @InjectDataSource() private readonly primary: DataSource,
  ) {
    this.maxLagMs = config.get('DATABASE_REPLICA_MAX_LAG_MS');
    this.replicas = config.databaseReplicaUrls.map((url, index) => ({
      index,
      dataSource: new DataSource({
        type: 'postgres',
        url,
        logger: new SafeQueryLogger(),
        logging: ['error', 'warn'],
        extra: { max: 10, connectionTimeoutMillis: 1000 },
      }),
      replayed: 0n,
      caughtUpAt: 0,
      reachable: false,
      reads: 0,
    }));
  }

  get configured(): boolean {
    return this.replicas.length > 0;
  }

  onModuleInit(): void {
    if (!this.configured) {
      return;
    }
    void this.poll();
    this.timer = setInterval(() => void this.poll(), REPLICA_POLL_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await Promise.all(
      this.replicas.map((r) => (r.dataSource.isInitialized ? r.dataSource.destroy() : undefined)),
    );
  }

  /**
   * A replica that may serve a read needing `minLsn` replayed and a catch-up begun after
   * `caughtUpAfter` (a change mark, ms), round robin, if any.
   */
  choose(minLsn: bigint, caughtUpAfter = 0, now = Date.now()): Replica | undefined {
    for (let i = 0; i < this.replicas.length; i++) {
      const replica = this.replicas[(this.next + i) % this.replicas.length];
      const fresh = replica.replayed >= minLsn && replica.caughtUpAt > caughtUpAfter;
      if (fresh && this.stateOf(replica, now) === 'in_use') {
        this.next = (replica.index + 1) % this.replicas.length;
        return replica;
      }
    }
    return undefined;
  }

  stateOf(replica: Replica, now = Date.now()): ReplicaState {
    if (!replica.reachable) {
      return 'unreachable';
    }
    return now - replica.caughtUpAt > this.maxLagMs ? 'lagging' : 'in_use';
  }

  /** For /health/ready: each replica's state, lag and reads served (no URLs). */
  status(now = Date.now()): Array<{ replica: number; state: ReplicaState; lag_ms: number; reads: number }> {
    return this.replicas.map((r) => ({
      replica: r.index,
      state: this.stateOf(r, now),
      lag_ms: r.caughtUpAt === 0 ? -1 : Math.max(0, now - r.caughtUpAt),
      reads: r.reads,
    }));
  }

  private async poll(): Promise<void> {
    if (this.polling) {
      return;
    }
    this.polling = true;
    try {
      // Taken before the primary's position is read: whatever committed before this instant is
      // in that position, so a replica that replayed it holds every change marked before then.
      const sampledAt = Date.now();
      const [{ lsn }] = await this.primary.query<Array<{ lsn: string }>>(
        'SELECT pg_current_wal_lsn()::text AS lsn',
      );
      const primaryLsn = parseLsn(lsn);
      await Promise.all(this.replicas.map((replica) => this.pollReplica(replica, primaryLsn, sampledAt)));
    } catch (err) {
      // The primary did not answer: the replicas' lag cannot be told, so it keeps growing.
      this.logger.debug(`Replica poll: primary position unknown (${(err as Error).message})`);
    } finally {
      this.polling = false;
    }
  }

  private async pollReplica(replica: Replica, primaryLsn: bigint, sampledAt: number): Promise<void> {
    try {
      if (!replica.dataSource.isInitialized) {
        await replica.dataSource.initialize();
      }
      const [{ lsn }] = await replica.dataSource.query<Array<{ lsn: string | null }>>(
        'SELECT pg_last_wal_replay_lsn()::text AS lsn',
      );
      if (lsn === null) {
        throw new Error('not a standby (no WAL replayed)');
      }
      replica.replayed = parseLsn(lsn);
      replica.caughtUpAt = replica.replayed >= primaryLsn ? sampledAt : replica.caughtUpAt;
      if (!replica.reachable) {
        this.logger.log(`Read replica ${replica.index} reachable`);
      }
      replica.reachable = true;
    } catch (err) {
      if (replica.reachable) {
        this.logger.warn(`Read replica ${replica.index} unreachable: ${(err as Error).message}`);
      }
      replica.reachable = false;
    }
  }
}
