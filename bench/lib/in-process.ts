import type { DynamicModule, Type } from '@nestjs/common';

/**
 * The core modules an in-process bench builds its Nest context from: configuration, logs, the
 * database and tenancy; with `jobs`, also Redis, events, the clock, the queue (no consumers: the
 * bench runs jobs itself through JobRunner) and the scheduler. Imported here, after
 * prepareBenchDatabase has set DATABASE_URL: configuration is read when the modules load.
 */
export async function benchCoreModules(options: { jobs: boolean }): Promise<Array<Type | DynamicModule>> {
  const { AppConfigModule } = await import('src/core/config/config.module');
  const { LoggingModule } = await import('src/core/logging/logging.module');
  const { DatabaseModule } = await import('src/core/database/database.module');
  const { TenancyModule } = await import('src/core/tenancy/tenancy.module');
  const core: Array<Type | DynamicModule> = [AppConfigModule, LoggingModule, DatabaseModule, TenancyModule];
  if (!options.jobs) {
    return core;
  }
  const { RedisModule } = await import('src/core/redis/redis.module');
  const { EventsCoreModule } = await import('src/core/events/events-core.module');
  const { ClockModule } = await import('src/core/clock/clock.module');
  const { QueueModule } = await import('src/core/queue/queue.module');
  const { SchedulerModule } = await import('src/core/scheduler/scheduler.module');
  return [
    ...core,
    RedisModule,
    EventsCoreModule,
    ClockModule,
    QueueModule.forRoot({ consumers: false }),
    SchedulerModule,
  ];
}

/** Samples this process's resident memory every `everyMs` until stopped; stop() answers the peak. */
export function trackPeakRss(everyMs: number): { stop(): number } {
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), everyMs);
  return {
    stop() {
      clearInterval(sampler);
      return Math.max(peak, process.memoryUsage().rss);
    },
  };
}
