import 'reflect-metadata';
import type { INestApplication, Type } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { DataSource, DataSourceOptions } from 'typeorm';
import { AppModule } from 'src/app.module';
import { configureApp } from 'src/app.setup';
import { dataSourceOptions } from 'src/core/database/data-source-options';
import { ApiKeyEntity } from 'src/core/tenancy/api-key.entity';
import { TenancyService } from 'src/core/tenancy/tenancy.service';
import { Product, TenantEntity } from 'src/core/tenancy/tenant.entity';
import { templateDb, withAdmin } from './database';
import { validatingResponses } from './openapi-validation';

export interface TestCredentials {
  id: string;
  publicKey: string;
  secret: string;
}

export interface TestTenant {
  tenantId: string;
  test: TestCredentials;
  live: TestCredentials;
}

export interface TestContext {
  /** supertest bound to the in-process app, or to E2E_BASE_URL when QA runs against a sandbox. */
  http(): ReturnType<typeof request>;
  /** The in-process app; undefined against a deployed sandbox. */
  app: INestApplication | undefined;
  /** Database of the app under test (the file's own clone, or E2E_DATABASE_URL remotely). */
  dataSource: DataSource;
  tenancy: TenancyService;
  createTenant(options?: { products?: Product[]; fixedIncome?: boolean; name?: string }): Promise<TestTenant>;
  close(): Promise<void>;
}

export const isRemote = Boolean(process.env.E2E_BASE_URL);

/** `it` for cases that need the in-process app (test-only routes, log capture, internals). */
export const itLocal: jest.It = isRemote ? it.skip : it;

/**
 * Boots the real AppModule exactly as main.ts does (configureApp), on this file's own database
 * cloned from the migrated template. With E2E_BASE_URL set, talks to that deployment instead.
 */
export async function createTestContext(
  options: { controllers?: Type<unknown>[] } = {},
): Promise<TestContext> {
  let app: INestApplication | undefined;
  let databaseUrl: string;
  if (isRemote) {
    databaseUrl = process.env.E2E_DATABASE_URL ?? process.env.DATABASE_URL ?? '';
    if (!databaseUrl) {
      throw new Error('E2E_DATABASE_URL must name the sandbox database so tests can create tenants.');
    }
  } else {
    const fileDb = process.env.TEST_FILE_DB as string;
    await withAdmin((admin) => admin.query(`CREATE DATABASE "${fileDb}" TEMPLATE "${templateDb()}"`));
    databaseUrl = process.env.DATABASE_URL as string;
    const moduleRef = await Test.createTestingModule({
      imports: [AppModule],
      controllers: options.controllers ?? [],
    }).compile();
    app = moduleRef.createNestApplication({ bodyParser: false, bufferLogs: true });
    configureApp(app);
    await app.init();
  }
  const dbOptions: DataSourceOptions = {
    ...dataSourceOptions(databaseUrl),
    entities: [TenantEntity, ApiKeyEntity],
  };
  const dataSource = await new DataSource(dbOptions).initialize();
  const tenancy = new TenancyService(
    dataSource.getRepository(TenantEntity),
    dataSource.getRepository(ApiKeyEntity),
  );
  const server = app?.getHttpServer();

  return {
    app,
    dataSource,
    tenancy,
    // Every response is checked against the committed OpenAPI document (openapi-validation.ts).
    http: () => validatingResponses(server ? request(server) : request(process.env.E2E_BASE_URL as string)),
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
      await app?.close();
      await dataSource.destroy();
      if (!isRemote) {
        await withAdmin((admin) =>
          admin.query(`DROP DATABASE IF EXISTS "${process.env.TEST_FILE_DB}" WITH (FORCE)`),
        );
      }
    },
  };
}

/** Authorization header value for HTTP Basic with a key pair. */
export function basic(creds: TestCredentials): string {
  return `Basic ${Buffer.from(`${creds.publicKey}:${creds.secret}`).toString('base64')}`;
}
