import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from 'src/core/config/app-config.service';
import { connectRedis, type RedisConnection } from 'src/core/redis/redis-connection';

export const REDIS = Symbol('REDIS');

/** One shared Redis connection (one node or a cluster) for rate limiting, stream slots and health. */
@Global()
@Module({
  providers: [
    {
      provide: REDIS,
      inject: [AppConfig],
      useFactory: (config: AppConfig) =>
        connectRedis(config.redis, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false }),
    },
  ],
  exports: [REDIS],
})
export class RedisModule implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: RedisConnection) {}

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
