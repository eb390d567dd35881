import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { parseLsn } from 'src/core/database/replicas/lsn';
import { REDIS } from 'src/core/redis/redis.module';
import type { RedisConnection } from 'src/core/redis/redis-connection';

/** How long a caller's last write position is kept: far beyond the lag any replica may serve at. */
const MARK_TTL_MS = 10_000;
/** A position no replica reaches: the mark of a write whose position could not be read. */
export const BEYOND_ANY_REPLICA = 'FFFFFFFF/FFFFFFFF';
/** Marks kept in this process (the oldest go first). */
const MAX_LOCAL_MARKS = 100_000;

/**
 * Read-your-writes across API processes: after a caller's request that may have written, the
 * primary's WAL position is kept for that caller (here and in Redis, for the other processes).
 * The caller's next reads may use only replicas that have replayed that far.
 */
@Injectable()
export class WriteMarks {
  private readonly logger = new Logger('Replicas');
  private readonly local = new Map<string, { lsn: bigint; until: number }>();

  constructor(
    @InjectDataSource() private readonly primary: DataSource,
    @Inject(REDIS) private readonly redis: RedisConnection,
  ) {}

  /**
   * Records the primary's position after `caller`'s write has committed. Never fails: the write is
   * done and its answer must go out. When the position cannot be read, the mark is the highest
   * position there is, so no replica serves the caller until the mark expires.
   */
  async record(caller: string): Promise<void> {
    const lsn = await this.primaryPosition();
    if (this.local.size >= MAX_LOCAL_MARKS) {
      this.local.delete(this.local.keys().next().value as string);
    }
    this.local.delete(caller);
    this.local.set(caller, { lsn: parseLsn(lsn), until: Date.now() + MARK_TTL_MS });
    await this.redis.set(markKey(caller), lsn, 'PX', MARK_TTL_MS).catch((err: Error) => {
      this.logger.warn(`Write position not shared (Redis): ${err.message}`);
    });
  }

  private async primaryPosition(): Promise<string> {
    try {
      const [{ lsn }] = await this.primary.query<Array<{ lsn: string }>>(
        'SELECT pg_current_wal_lsn()::text AS lsn',
      );
      return lsn;
    } catch (err) {
      this.logger.warn(
        `Write position not read, the caller's reads stay on the primary: ${(err as Error).message}`,
      );
      return BEYOND_ANY_REPLICA;
    }
  }

  /**
   * The position a replica must have replayed to serve `caller`, or undefined when it cannot be
   * told (Redis unreachable): the caller's reads then stay on the primary.
   */
  async required(caller: string): Promise<bigint | undefined> {
    const mine = this.local.get(caller);
    const localLsn = mine && mine.until > Date.now() ? mine.lsn : 0n;
    try {
      const shared = await this.redis.get(markKey(caller));
      const sharedLsn = shared ? parseLsn(shared) : 0n;
      return sharedLsn > localLsn ? sharedLsn : localLsn;
    } catch {
      return undefined;
    }
  }
}

function markKey(caller: string): string {
  return `replica-reads:written:{${caller}}`;
}
