import 'reflect-metadata';
import { once } from 'node:events';
import { NestFactory } from '@nestjs/core';
import type Redis from 'ioredis';
import { REDIS } from 'src/core/redis/redis.module';
import { JobQueue } from 'src/core/scheduler/job-queue.service';
import { DeliveryQueue } from 'src/modules/webhooks/delivery/delivery-queue.service';
import { OrderEngine } from 'src/modules/trading/engine/order-engine.service';
import { OrderFills } from 'src/modules/trading/engine/order-fills';
import { WorkerModule } from 'src/worker.module';

/**
 * The real worker process (WorkerModule) ticking one asset's orders. CRASH=mid_tick: it dies
 * (SIGKILL) after the third fill was written, inside the tick's transaction; CRASH=after_commit: it
 * dies right after the tick committed. TENANT and ASSET name what to tick.
 */
async function main(): Promise<void> {
  const app = await NestFactory.createApplicationContext(WorkerModule, {
    logger: false,
    abortOnError: false,
  });
  const fills = app.get(OrderFills);
  const fill = fills.fill.bind(fills);
  let written = 0;
  fills.fill = async (...args) => {
    const result = await fill(...args);
    if (process.env.CRASH === 'mid_tick' && ++written === 3) {
      process.kill(process.pid, 'SIGKILL');
    }
    return result;
  };
  // Bull's Redis clients must be connected before the app closes: closing a client still connecting
  // rejects its queued commands with nobody to catch them, and the process would exit with 1.
  const redis = app.get<Redis>(REDIS);
  await Promise.all([
    app.get(JobQueue).queue.isReady(),
    app.get(DeliveryQueue).queue.isReady(),
    redis.status === 'ready' ? undefined : once(redis, 'ready'),
  ]);
  process.stdout.write('WORKER READY\n');
  await app
    .get(OrderEngine)
    .tick({ tenantId: process.env.TENANT as string, livemode: false }, [process.env.ASSET as string]);
  if (process.env.CRASH === 'after_commit') {
    process.kill(process.pid, 'SIGKILL');
  }
  await app.close();
}

main().catch((err: unknown) => {
  process.stderr.write(`${String(err)}\n`);
  process.exit(1);
});
