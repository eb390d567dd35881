import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppLogger } from 'src/core/logging/app-logger';

/** Entry of the worker process (docker-compose `worker`): runs queue consumers, serves no HTTP. */
async function bootstrap(): Promise<void> {
  const { WorkerModule } = await import('src/worker.module');
  const app = await NestFactory.createApplicationContext(WorkerModule, { bufferLogs: true });
  app.useLogger(app.get(AppLogger));
  app.enableShutdownHooks();
  app.get(AppLogger).log('Worker started', 'Worker');
}

bootstrap().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
