import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { configureApp } from 'src/app.setup';
import { AppConfig } from 'src/core/config/app-config.service';

async function bootstrap(): Promise<void> {
  const { AppModule } = await import('src/app.module');
  const app = await NestFactory.create(AppModule, {
    bufferLogs: true,
    bodyParser: false,
    abortOnError: false,
  });
  configureApp(app);
  const port = app.get(AppConfig).get('PORT');
  await app.listen(port, '0.0.0.0');
}

bootstrap().catch((err: unknown) => {
  // Configuration and connection failures end here: one line naming the cause, then exit.
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
