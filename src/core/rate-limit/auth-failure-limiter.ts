import { Inject, Injectable, Logger } from '@nestjs/common';
import Redis from 'ioredis';
import { AppConfig } from 'src/core/config/app-config.service';
import { REDIS } from 'src/core/redis/redis.module';
import { TAKE_FAILURE_SCRIPT } from 'src/core/rate-limit/token-bucket.lua';

type TakeFailure = (numberOfKeys: number, ...args: Array<string | number>) => Promise<number[]>;

/**
 * Limits failed authentication, never successful: only requests whose credentials were refused
 * reach it, so a partner's correct key always gets through however many wrong guesses others
 * send with its public key. Past AUTH_FAILURES_PER_KEY_PER_MINUTE failures for one public key,
 * or AUTH_FAILURES_PER_ADDRESS_PER_MINUTE from one client address, the failed attempt answers
 * 429 SVC-429-001 with Retry-After instead of 401. Token buckets (that many per minute, refilled
 * evenly) in Redis, one atomic script run per failure, shared by every process.
 */
@Injectable()
export class AuthFailureLimiter {
  private readonly logger = new Logger('RateLimit');
  private readonly takeFailure: TakeFailure;
  private readonly perKey: number;
  private readonly perAddress: number;
  private readonly prefix: string;

  constructor(@Inject(REDIS) redis: Redis, config: AppConfig) {
    if (!(redis as unknown as { takeFailure?: TakeFailure }).takeFailure) {
      redis.defineCommand('takeFailure', { lua: TAKE_FAILURE_SCRIPT });
    }
    this.takeFailure = (redis as unknown as { takeFailure: TakeFailure }).takeFailure.bind(redis);
    this.perKey = config.get('AUTH_FAILURES_PER_KEY_PER_MINUTE');
    this.perAddress = config.get('AUTH_FAILURES_PER_ADDRESS_PER_MINUTE');
    this.prefix = `${config.get('QUEUE_PREFIX')}:authfail`;
  }

  /**
   * Records one failed attempt. Answers the seconds to wait when it is past a limit, else null.
   * `publicKey` is absent for bearer tokens and unreadable headers (address limit only).
   */
  async recordFailure(address: string, publicKey: string | undefined): Promise<number | null> {
    const keys = [`${this.prefix}:addr:${address}`];
    const args: Array<string | number> = [Date.now(), this.perAddress / 60_000, this.perAddress];
    if (publicKey) {
      keys.push(`${this.prefix}:key:${publicKey.slice(0, 128)}`);
      args.push(this.perKey / 60_000, this.perKey);
    }
    try {
      const [allowed, ...waits] = await this.takeFailure(keys.length, ...keys, ...args);
      if (Number(allowed) === 1) {
        return null;
      }
      return Math.max(1, Math.ceil(Math.max(...waits.map(Number)) / 1000));
    } catch (err) {
      // Without Redis the 401 still stands; only the lockout of guessing is lost meanwhile.
      this.logger.warn(`Failed-authentication limit unavailable (Redis): ${(err as Error).message}`);
      return null;
    }
  }
}
