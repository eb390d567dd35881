import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { configureApp } from 'src/app.setup';
import { AppConfig } from 'src/core/config/app-config.service';
import { ServiceExpressAdapter } from 'src/core/http/service-express-adapter';
import { AppLogger, flushLogs } from 'src/core/logging/app-logger';
import { readSandboxCredentials, startupSummary } from 'src/core/logging/startup-summary';

async function bootstrap(): Promise<void> {
  const { AppModule } = await import('src/app.module');
  const app = await NestFactory.create(AppModule, new ServiceExpressAdapter(), {
    bufferLogs: true,
    bodyParser: false,
    abortOnError: false,
  });
  configureApp(app);
  const config = app.get(AppConfig);
  const port = config.get('PORT');
  await app.listen(port, '0.0.0.0');
  // PUBLIC_URL when the deployment names its address, else this port on this machine.
  const apiUrl = process.env.PUBLIC_URL ? config.get('PUBLIC_URL') : `http://localhost:${port}`;
  app.get(AppLogger).pino.info({ context: 'Bootstrap', url: apiUrl, port }, `Listening on ${apiUrl}`);
  if (config.get('APP_ENV') === 'sandbox') {
    // Last on the screen, after every log line: where to go and, from the sandbox script, the keys.
    flushLogs();
    const file = process.env.SANDBOX_CREDENTIALS_FILE;
    process.stdout.write(
      `${startupSummary({
        apiUrl,
        dashboardUrl: process.env.DASHBOARD_URL ? config.get('DASHBOARD_URL') : `${apiUrl}/dashboard`,
        credentials: readSandboxCredentials(file),
        credentialsFile: file,
      })}\n`,
    );
  }
}

bootstrap().catch((err: unknown) => {
  // Configuration and connection failures end here: one line naming the cause, then exit.
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
