import { Logger } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type Redis from 'ioredis';

interface ThrottlerStorageRecord {
  totalHits: number;
  timeToExpire: number;
  isBlocked: boolean;
  timeToBlockExpire: number;
}

interface WindowCounter {
  window: number;
  endsAt: number;
  /** Deployment-wide count Redis last reported for this window (our flushed hits included). */
  known: number;
  /** Hits of this process not yet sent to Redis. */
  pending: number;
  /** Hits sent to Redis whose answer has not come back yet. */
  inFlight: number;
}

/**
 * Throttler storage shared across processes through Redis, without a Redis round trip per
 * request: each process counts hits per fixed window locally and adds them to the window's
 * Redis counter every FLUSH_MS, reading back the deployment-wide total. A key's limit is
 * therefore exact within one process and at most FLUSH_MS stale across processes. If Redis is
 * unreachable, each process keeps limiting on its own counts.
 */
export class BatchedRedisThrottlerStorage implements ThrottlerStorage {
  static readonly FLUSH_MS = 25;
  private readonly logger = new Logger('RateLimit');
  private readonly counters = new Map<string, WindowCounter>();
  private timer: NodeJS.Timeout | undefined;
  private flushing = false;

  constructor(private readonly redis: Redis) {}

  increment(key: string, ttl: number, limit: number): Promise<ThrottlerStorageRecord> {
    const now = Date.now();
    const window = Math.floor(now / ttl);
    let counter = this.counters.get(key);
    if (!counter || counter.window !== window) {
      counter = { window, endsAt: (window + 1) * ttl, known: 0, pending: 0, inFlight: 0 };
      this.counters.set(key, counter);
    }
    counter.pending++;
    this.schedule();
    const totalHits = counter.known + counter.pending + counter.inFlight;
    const timeToExpire = Math.max(1, Math.ceil((counter.endsAt - now) / 1000));
    const isBlocked = totalHits > limit;
    return Promise.resolve({
      totalHits,
      timeToExpire,
      isBlocked,
      timeToBlockExpire: isBlocked ? timeToExpire : 0,
    });
  }

  /** Sends pending counts now (tests and shutdown). */
  async flush(): Promise<void> {
    if (this.flushing) {
      return;
    }
    this.flushing = true;
    try {
      const now = Date.now();
      const batch: Array<{ counter: WindowCounter; sent: number; redisKey: string }> = [];
      for (const [key, counter] of this.counters) {
        if (counter.endsAt <= now) {
          this.counters.delete(key);
        } else if (counter.pending > 0) {
          batch.push({ counter, sent: counter.pending, redisKey: `${key}:${counter.window}` });
          counter.inFlight += counter.pending;
          counter.pending = 0;
        }
      }
      if (batch.length === 0) {
        return;
      }
      const pipeline = this.redis.pipeline();
      for (const { counter, sent, redisKey } of batch) {
        pipeline.incrby(redisKey, sent).pexpireat(redisKey, counter.endsAt + 1000);
      }
      try {
        const results = (await pipeline.exec()) ?? [];
        batch.forEach(({ counter, sent }, i) => {
          const [err, total] = results[i * 2] ?? [];
          counter.inFlight -= sent;
          if (!err && typeof total === 'number') {
            counter.known = total;
          } else {
            counter.known += sent;
          }
        });
      } catch (err) {
        batch.forEach(({ counter, sent }) => {
          counter.inFlight -= sent;
          counter.known += sent;
        });
        this.logger.warn(`Rate-limit counters not shared (Redis): ${(err as Error).message}`);
      }
    } finally {
      this.flushing = false;
    }
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    if (!this.timer) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        void this.flush().then(() => {
          if ([...this.counters.values()].some((c) => c.pending > 0)) {
            this.schedule();
          }
        });
      }, BatchedRedisThrottlerStorage.FLUSH_MS);
      this.timer.unref();
    }
  }
}
