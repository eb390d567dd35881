import { Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import type { RedisConnection } from 'src/core/redis/redis-connection';
import { REDIS } from 'src/core/redis/redis.module';
import { AuthFailureLimiter } from 'src/core/rate-limit/auth-failure-limiter';
import { API_KEY_BUCKETS } from 'src/core/rate-limit/rate-limit.tokens';
import { BatchedTokenBuckets } from 'src/core/rate-limit/token-buckets';

/**
 * Per-API-key token buckets (RATE_LIMIT_PER_SECOND sustained, bursts up to RATE_LIMIT_BURST)
 * and the failed-authentication limiter, both shared across processes through Redis.
 */
@Module({
  providers: [
    {
      provide: API_KEY_BUCKETS,
      inject: [REDIS],
      useFactory: (redis: RedisConnection) => new BatchedTokenBuckets(redis),
    },
    AuthFailureLimiter,
  ],
  exports: [API_KEY_BUCKETS, AuthFailureLimiter],
})
export class RateLimitModule implements OnApplicationShutdown {
  constructor(@Inject(API_KEY_BUCKETS) private readonly buckets: BatchedTokenBuckets) {}

  onApplicationShutdown(): void {
    this.buckets.stop();
  }
}
