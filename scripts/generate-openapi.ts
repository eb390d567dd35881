import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { AppModule } from 'src/app.module';
import { configureApp } from 'src/app.setup';
import { buildOpenApiDocument, toStableYaml } from 'src/openapi/openapi-document';

/** Boots the app with logging off and writes openapi/openapi.yaml from the code. */
async function main(): Promise<void> {
  process.env.LOG_LEVEL = 'silent';
  // abortOnError off: a failure to boot (no database, say) reaches the catch below and is printed.
  const app = await NestFactory.create(AppModule, { logger: false, bodyParser: false, abortOnError: false });
  configureApp(app, { swagger: false });
  await app.init();
  const file = resolve(__dirname, '..', 'openapi', 'openapi.yaml');
  writeFileSync(file, toStableYaml(buildOpenApiDocument(app)));
  await app.close();
  process.stdout.write(`wrote ${file}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
