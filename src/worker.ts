import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppLogger } from 'src/core/logging/app-logger';
import { writeWorkerReady } from 'src/worker-ready';

/**
 * Entry of the worker process (docker-compose `worker`): runs queue consumers, serves no HTTP.
 * Once they run it writes its ready line to stdout (`{"msg":"worker ready",...}`, src/worker-ready.ts).
 */
async function bootstrap(): Promise<void> {
  const { WorkerModule } = await import('src/worker.module');
  const app = await NestFactory.createApplicationContext(WorkerModule, { bufferLogs: true });
  app.useLogger(app.get(AppLogger));
  app.enableShutdownHooks();
  writeWorkerReady(app);
}

bootstrap().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
