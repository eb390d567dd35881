import 'reflect-metadata';
import type { INestApplication, Type } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { DataSource, DataSourceOptions } from 'typeorm';
import { AppModule } from 'src/app.module';
import { configureApp } from 'src/app.setup';
import { dataSourceOptions } from 'src/core/database/data-source-options';
import { ServiceExpressAdapter } from 'src/core/http/service-express-adapter';
import { ApiKeyEntity } from 'src/core/tenancy/api-key.entity';
import { TenancyService } from 'src/core/tenancy/tenancy.service';
import { TenantEntity } from 'src/core/tenancy/tenant.entity';
import type { TestContext, TestCredentials } from './app';
import { clientAs } from './client';
import { templateDb, withAdmin } from './database';
import { tracked } from './open-contexts';
import { validatingResponses } from './openapi-validation';

/**
 * Boots the real AppModule exactly as main.ts does (configureApp), on this file's own database
 * cloned from the migrated template. Loaded only when there is an in-process app (see app.ts).
 */
export function createLocalContext(options: { controllers?: Type<unknown>[] } = {}): Promise<TestContext> {
  return tracked(() => bootLocalContext(options));
}

async function dropFileDb(): Promise<void> {
  await withAdmin((admin) =>
    admin.query(`DROP DATABASE IF EXISTS "${process.env.TEST_FILE_DB}" WITH (FORCE)`),
  );
}

async function bootLocalContext(options: { controllers?: Type<unknown>[] }): Promise<TestContext> {
  const fileDb = process.env.TEST_FILE_DB as string;
  await withAdmin((admin) => admin.query(`CREATE DATABASE "${fileDb}" TEMPLATE "${templateDb()}"`));
  const databaseUrl = process.env.DATABASE_URL as string;
  let app: INestApplication | undefined;
  let dataSource: DataSource | undefined;
  try {
    const moduleRef = await Test.createTestingModule({
      imports: [AppModule],
      controllers: options.controllers ?? [],
    }).compile();
    app = moduleRef.createNestApplication(new ServiceExpressAdapter(), {
      bodyParser: false,
      bufferLogs: true,
    });
    configureApp(app);
    await app.init();
    const dbOptions: DataSourceOptions = {
      ...dataSourceOptions(databaseUrl),
      entities: [TenantEntity, ApiKeyEntity],
    };
    dataSource = await new DataSource(dbOptions).initialize();
  } catch (err) {
    // A boot that fails half way closes what it opened (Redis clients, pools, queues) and its database.
    await app?.close().catch(() => undefined);
    await dropFileDb().catch(() => undefined);
    throw err;
  }
  return contextOf(app, dataSource);
}

function contextOf(app: INestApplication, dataSource: DataSource): TestContext {
  const tenancy = new TenancyService(
    dataSource.getRepository(TenantEntity),
    dataSource.getRepository(ApiKeyEntity),
  );
  const server = app.getHttpServer();
  // Every response is checked against the committed OpenAPI document (openapi-validation.ts).
  const http = () => validatingResponses(request(server));

  return {
    app,
    dataSource,
    tenancy,
    http,
    as: (creds) => clientAs(http, creds),
    async createTenant(opts = {}) {
      const { tenant, test, live } = await tenancy.createTenant(
        opts.name ?? 'Test partner',
        opts.products ?? [],
        opts.fixedIncome ?? false,
      );
      const creds = (c: typeof test): TestCredentials => ({
        id: c.key.id,
        publicKey: c.key.public_key,
        secret: c.secret,
      });
      return { tenantId: tenant.id, test: creds(test), live: creds(live) };
    },
    async close() {
      await app.close();
      await dataSource.destroy();
      await dropFileDb();
    },
  };
}
