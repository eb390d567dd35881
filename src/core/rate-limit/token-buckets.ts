import { Logger } from '@nestjs/common';
import { keyRunsFor, type RedisConnection } from 'src/core/redis/redis-connection';
import { TAKE_TOKENS_SCRIPT } from 'src/core/rate-limit/token-bucket.lua';

export interface BucketAnswer {
  allowed: boolean;
  /** Whole requests that may still be sent at once after this one. */
  remaining: number;
  /** Seconds until the bucket holds its full burst again. */
  resetSeconds: number;
  /** Seconds until one request is allowed again (when refused). */
  retryAfterSeconds: number;
}

interface LocalBucket {
  /** Deployment-wide tokens Redis reported at syncedAt (this process's sent hits included). */
  tokens: number;
  syncedAt: number;
  /** Hits admitted here and not yet sent to Redis. */
  pending: number;
  /** Hits sent to Redis whose answer has not come back yet. */
  inFlight: number;
  rate: number;
  burst: number;
}

type TakeTokens = (numberOfKeys: number, ...args: Array<string | number>) => Promise<number[]>;

/**
 * Token buckets (refill `rate` per second up to `burst`) shared across processes through Redis,
 * without a Redis round trip per request: each process decides from its own view of the bucket
 * and sends the hits it admitted to Redis in one atomic script run, reading back the
 * deployment-wide tokens. Within one process the burst holds exactly at every instant (no
 * window edges: at most burst + rate × t requests pass in any span t), however often it syncs.
 * Across processes the view is at most FLUSH_MS stale once a bucket's hits not yet sent reach a
 * quarter of what it has left; before that, sending them waits up to RELAXED_FLUSH_MS (each
 * process then holds at most a fifth of the tokens its view showed, so up to five processes
 * cannot overdraw a bucket from one view, and a key far below its limit costs no Redis run per
 * few requests). Hits admitted on a stale view become debt the refill repays. If Redis is
 * unreachable, each process keeps limiting on its own view.
 */
export class BatchedTokenBuckets {
  static readonly FLUSH_MS = 25;
  static readonly RELAXED_FLUSH_MS = 250;
  private static readonly MAX_KEYS_PER_SCRIPT = 500;
  private readonly logger = new Logger('RateLimit');
  private readonly buckets = new Map<string, LocalBucket>();
  private readonly takeTokens: TakeTokens;
  private timer: NodeJS.Timeout | undefined;
  /** When the armed timer fires (epoch ms). */
  private timerDue = 0;
  private flushing = false;

  private readonly clustered: boolean;

  constructor(redis: RedisConnection) {
    this.clustered = redis.isCluster;
    if (!(redis as unknown as { takeTokens?: TakeTokens }).takeTokens) {
      redis.defineCommand('takeTokens', { lua: TAKE_TOKENS_SCRIPT });
    }
    const command = (redis as unknown as { takeTokens: TakeTokens }).takeTokens;
    this.takeTokens = command.bind(redis);
  }

  /** Takes one token from `key`'s bucket if it has one. */
  take(key: string, perSecond: number, burst: number): BucketAnswer {
    const now = Date.now();
    const rate = perSecond / 1000;
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = { tokens: burst, syncedAt: now, pending: 0, inFlight: 0, rate, burst };
      this.buckets.set(key, bucket);
    }
    let available = this.available(bucket, now);
    const allowed = available >= 1;
    if (allowed) {
      bucket.pending++;
      available--;
      this.schedule(this.delayFor(bucket, available), now);
    }
    return {
      allowed,
      remaining: Math.max(0, Math.floor(available)),
      resetSeconds: Math.max(0, Math.ceil((burst - available) / perSecond)),
      retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((1 - available) / perSecond)),
    };
  }

  /** Sends admitted hits now (tests and shutdown). */
  async flush(): Promise<void> {
    if (this.flushing) {
      return;
    }
    this.flushing = true;
    try {
      const now = Date.now();
      const batch: Array<{ key: string; bucket: LocalBucket; sent: number }> = [];
      for (const [key, bucket] of this.buckets) {
        if (bucket.pending > 0) {
          batch.push({ key, bucket, sent: bucket.pending });
          bucket.inFlight += bucket.pending;
          bucket.pending = 0;
        } else if (bucket.inFlight === 0 && this.available(bucket, now) >= bucket.burst) {
          this.buckets.delete(key); // full again: a fresh entry starts the same way
        }
      }
      await Promise.all(this.scriptRuns(batch).map((run) => this.send(run, now)));
    } finally {
      this.flushing = false;
    }
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /**
   * The script runs one flush needs: runs of at most MAX_KEYS_PER_SCRIPT keys on one node; one
   * run per hash tag in a cluster, where a script may only touch keys of one slot.
   */
  private scriptRuns<T extends { key: string }>(batch: T[]): T[][] {
    if (this.clustered) {
      return keyRunsFor(
        batch.map((b) => b.key),
        true,
      ).map((run) => run.map((i) => batch[i]));
    }
    const runs: T[][] = [];
    for (let i = 0; i < batch.length; i += BatchedTokenBuckets.MAX_KEYS_PER_SCRIPT) {
      runs.push(batch.slice(i, i + BatchedTokenBuckets.MAX_KEYS_PER_SCRIPT));
    }
    return runs;
  }

  private async send(batch: Array<{ key: string; bucket: LocalBucket; sent: number }>, now: number) {
    const args: Array<string | number> = batch.map((b) => b.key);
    args.push(now);
    for (const { bucket, sent } of batch) {
      args.push(sent, bucket.rate, bucket.burst);
    }
    try {
      const tokens = await this.takeTokens(batch.length, ...args);
      batch.forEach(({ bucket, sent }, i) => {
        bucket.inFlight -= sent;
        const reported = Number(tokens[i]);
        if (Number.isFinite(reported)) {
          bucket.tokens = reported / 1000;
          bucket.syncedAt = now;
        } else {
          this.chargeLocally(bucket, sent, now);
        }
      });
    } catch (err) {
      batch.forEach(({ bucket, sent }) => {
        bucket.inFlight -= sent;
        this.chargeLocally(bucket, sent, now);
      });
      this.logger.warn(`Rate-limit buckets not shared (Redis): ${(err as Error).message}`);
    }
  }

  private chargeLocally(bucket: LocalBucket, sent: number, now: number): void {
    bucket.tokens = Math.min(bucket.burst, bucket.tokens + (now - bucket.syncedAt) * bucket.rate) - sent;
    bucket.syncedAt = now;
  }

  private available(bucket: LocalBucket, now: number): number {
    const refilled = Math.min(bucket.burst, bucket.tokens + Math.max(0, now - bucket.syncedAt) * bucket.rate);
    return refilled - bucket.pending - bucket.inFlight;
  }

  /** How soon a bucket's unsent hits must reach Redis, given what it has left after them. */
  private delayFor(bucket: LocalBucket, available: number): number {
    return bucket.pending * 4 > available
      ? BatchedTokenBuckets.FLUSH_MS
      : BatchedTokenBuckets.RELAXED_FLUSH_MS;
  }

  /** Arms the timer `delay` ms from `now`, or brings an armed one forward. */
  private schedule(delay: number, now: number): void {
    const due = now + delay;
    if (this.timer) {
      if (due >= this.timerDue) {
        return;
      }
      clearTimeout(this.timer);
    }
    this.timerDue = due;
    this.timer = setTimeout(this.flushOnTimer, delay);
    this.timer.unref();
  }

  /** One function for every arming: sends the hits, then re-arms for those admitted meanwhile. */
  private readonly flushOnTimer = (): void => {
    this.timer = undefined;
    void this.flush().then(() => {
      const now = Date.now();
      for (const bucket of this.buckets.values()) {
        if (bucket.pending > 0) {
          this.schedule(this.delayFor(bucket, this.available(bucket, now)), now);
        }
      }
    });
  };
}
