import { Module } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import Redis from 'ioredis';
import { AppConfig } from 'src/core/config/app-config.service';
import { REDIS } from 'src/core/redis/redis.module';
import { BatchedRedisThrottlerStorage } from 'src/core/rate-limit/batched-redis.storage';

/**
 * RATE_LIMIT_PER_SECOND sustained with bursts up to RATE_LIMIT_BURST: one window of
 * burst / rate seconds allowing `burst` requests (100/s, burst 200 → 200 per 2 s).
 */
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      inject: [AppConfig, REDIS],
      useFactory: (config: AppConfig, redis: Redis) => {
        const burst = config.get('RATE_LIMIT_BURST');
        const perSecond = config.get('RATE_LIMIT_PER_SECOND');
        return {
          throttlers: [
            { name: 'default', limit: burst, ttl: Math.max(1000, Math.round((burst / perSecond) * 1000)) },
          ],
          storage: new BatchedRedisThrottlerStorage(redis),
        };
      },
    }),
  ],
  exports: [ThrottlerModule],
})
export class RateLimitModule {}
