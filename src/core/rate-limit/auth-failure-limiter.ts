import { Inject, Injectable, Logger } from '@nestjs/common';
import { keyRunsFor, type RedisConnection } from 'src/core/redis/redis-connection';
import { AppConfig } from 'src/core/config/app-config.service';
import { REDIS } from 'src/core/redis/redis.module';
import { TAKE_FAILURE_SCRIPT } from 'src/core/rate-limit/token-bucket.lua';

type TakeFailure = (numberOfKeys: number, ...args: Array<string | number>) => Promise<number[]>;

/** Longest wait for Redis on a failed login before this process's own buckets decide. */
export const SHARED_LIMIT_TIMEOUT_MS = 150;
/** Buckets this process keeps while Redis is away (beyond, the oldest view is dropped). */
const MAX_LOCAL_BUCKETS = 100_000;

interface LocalBucket {
  tokens: number;
  at: number;
}

/** Where failed logins are counted now: Redis (every process), or this process alone. */
export type FailureStore = 'redis' | 'process';

/**
 * Limits failed authentication, never successful: only requests whose credentials were refused
 * reach it, so a partner's correct key always gets through however many wrong guesses others
 * send with its public key. Past AUTH_FAILURES_PER_KEY_PER_MINUTE failures for one public key,
 * or AUTH_FAILURES_PER_ADDRESS_PER_MINUTE from one client address, the failed attempt answers
 * 429 SVC-429-001 with Retry-After instead of 401. Token buckets (that many per minute, refilled
 * evenly) in Redis, one atomic script run per failure, shared by every process.
 *
 * Redis unreachable or frozen must neither slow authentication nor lift the limit: a script run
 * that has not answered within SHARED_LIMIT_TIMEOUT_MS (or fails) is decided by the same buckets
 * kept in this process, and /health/ready reports the store in use (`store`: redis or process).
 */
@Injectable()
export class AuthFailureLimiter {
  private readonly logger = new Logger('RateLimit');
  private readonly takeFailure: TakeFailure;
  private readonly perKey: number;
  private readonly perAddress: number;
  private readonly prefix: string;
  private readonly clustered: boolean;
  private readonly local = new Map<string, LocalBucket>();
  private current: FailureStore = 'redis';
  private warnedAt = 0;

  constructor(@Inject(REDIS) redis: RedisConnection, config: AppConfig) {
    if (!(redis as unknown as { takeFailure?: TakeFailure }).takeFailure) {
      redis.defineCommand('takeFailure', { lua: TAKE_FAILURE_SCRIPT });
    }
    this.clustered = redis.isCluster;
    this.takeFailure = (redis as unknown as { takeFailure: TakeFailure }).takeFailure.bind(redis);
    this.perKey = config.get('AUTH_FAILURES_PER_KEY_PER_MINUTE');
    this.perAddress = config.get('AUTH_FAILURES_PER_ADDRESS_PER_MINUTE');
    this.prefix = `${config.get('QUEUE_PREFIX')}:authfail`;
  }

  /** The store the last failed login was counted in. */
  get store(): FailureStore {
    return this.current;
  }

  /**
   * Records one failed attempt. Answers the seconds to wait when it is past a limit, else null.
   * `publicKey` is absent for bearer tokens and unreadable headers (address limit only).
   */
  async recordFailure(address: string, publicKey: string | undefined): Promise<number | null> {
    const keys = [`${this.prefix}:addr:${address}`];
    const limits = [this.perAddress];
    if (publicKey) {
      keys.push(`${this.prefix}:key:${publicKey.slice(0, 128)}`);
      limits.push(this.perKey);
    }
    const now = Date.now();
    let waits: number[];
    try {
      waits = await this.shared(keys, limits, now);
      this.current = 'redis';
    } catch (err) {
      this.current = 'process';
      this.warn(err as Error);
      waits = keys.map((key, i) => this.takeLocally(key, limits[i], now));
    }
    const wait = Math.max(...waits);
    return wait > 0 ? Math.max(1, Math.ceil(wait / 1000)) : null;
  }

  /**
   * The script's waits (0 where a bucket had a token), or a rejection after the timeout. In a
   * cluster the two buckets live in different slots: one script run each, side by side (each
   * bucket is charged on its own either way).
   */
  private shared(keys: string[], limits: number[], now: number): Promise<number[]> {
    const runs = keyRunsFor(keys, this.clustered).map(async (run) => {
      const args: Array<string | number> = [now];
      for (const i of run) {
        args.push(limits[i] / 60_000, limits[i]);
      }
      const [, ...waits] = await this.takeFailure(run.length, ...run.map((i) => keys[i]), ...args);
      return run.map((i, at) => ({ i, wait: Number(waits[at]) }));
    });
    return new Promise<number[]>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no answer within ${SHARED_LIMIT_TIMEOUT_MS} ms`)),
        SHARED_LIMIT_TIMEOUT_MS,
      );
      Promise.all(runs).then(
        (answers) => {
          clearTimeout(timer);
          const waits: number[] = [];
          answers.flat().forEach(({ i, wait }) => (waits[i] = wait));
          resolve(waits);
        },
        (err: unknown) => {
          clearTimeout(timer);
          reject(err instanceof Error ? err : new Error(String(err)));
        },
      );
    });
  }

  /** The script's bucket in this process: `limit` per minute, bursts of `limit`; the wait in ms. */
  private takeLocally(key: string, limit: number, now: number): number {
    const rate = limit / 60_000;
    let bucket = this.local.get(key);
    if (!bucket) {
      if (this.local.size >= MAX_LOCAL_BUCKETS) {
        this.local.delete(this.local.keys().next().value as string);
      }
      bucket = { tokens: limit, at: now };
      this.local.set(key, bucket);
    }
    bucket.tokens = Math.min(limit, bucket.tokens + Math.max(0, now - bucket.at) * rate);
    bucket.at = now;
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.ceil((1 - bucket.tokens) / rate);
  }

  /** One warning a minute at most: a Redis outage must not flood the log with a line per guess. */
  private warn(err: Error): void {
    const now = Date.now();
    if (now - this.warnedAt >= 60_000) {
      this.warnedAt = now;
      this.logger.warn(`Failed-authentication limit kept per process (Redis): ${err.message}`);
    }
  }
}
