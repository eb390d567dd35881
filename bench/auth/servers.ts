import 'reflect-metadata';
import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Server } from 'node:http';
import { EVENT_TYPES } from 'src/core/events/event-types';

/**
 * Bench servers. `bare`: a NestJS app with one route returning the same body as the event-type
 * list, no guards, logging or middleware — the baseline. `app`: the real service.
 */
const BODY = {
  object: 'list',
  url: '/v1/webhooks/event-types',
  has_more: false,
  data: EVENT_TYPES.map((t) => ({ object: 'event_type', name: t.name, description: t.description })),
};

@Controller('v1/webhooks/event-types')
class BareController {
  @Get()
  list() {
    return BODY;
  }
}

@Module({ controllers: [BareController] })
class BareModule {}

/**
 * Idle keep-alive connections stay open for a minute on both servers: under valgrind a server can
 * be slow enough that the default 5 s closes a connection the load generator is about to reuse.
 */
function keepConnections(server: Server): void {
  server.keepAliveTimeout = 60_000;
}

async function main(): Promise<void> {
  const mode = process.argv[2];
  if (mode === 'bare') {
    const app = await NestFactory.create(BareModule, { logger: false });
    process.once('SIGTERM', () => process.exit(0)); // a normal exit, so profilers write out
    await app.listen(0, '127.0.0.1');
    keepConnections(app.getHttpServer() as Server);
    process.stdout.write(`LISTENING ${(app.getHttpServer().address() as { port: number }).port}\n`);
    return;
  }
  const { AppModule } = await import('src/app.module');
  const { configureApp } = await import('src/app.setup');
  const { ServiceExpressAdapter } = await import('src/core/http/service-express-adapter');
  const app = await NestFactory.create(AppModule, new ServiceExpressAdapter(), {
    bufferLogs: true,
    bodyParser: false,
  });
  configureApp(app, { swagger: false });
  await app.listen(0, '127.0.0.1');
  keepConnections(app.getHttpServer() as Server);
  // A normal exit on SIGTERM, so `node --cpu-prof` (run.ts profile) writes its profile out.
  process.once('SIGTERM', () => void app.close().finally(() => process.exit(0)));
  process.stdout.write(`LISTENING ${(app.getHttpServer().address() as { port: number }).port}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${String(err)}\n`);
  process.exit(1);
});
