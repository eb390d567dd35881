import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
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
import { remoteJwtKey } from './jwt';
import { validatingResponses } from './openapi-validation';
import { adminToken, deleteTenant, isRemote, remoteBaseUrl, runTenantPrefix, serverAppEnv } from './remote';

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

export { isRemote };

/** `it` for cases that need the in-process app (test-only routes, log capture, internals). */
export const itLocal: jest.It = isRemote ? it.skip : it;

/**
 * `it` for cases whose Bearer tokens the app must trust: always in process; against a deployment
 * only when QA gives the suite the private key of the sandbox's JWT_PUBLIC_KEY (E2E_JWT_PRIVATE_KEY).
 */
export const itTrustedJwt: jest.It = isRemote && !remoteJwtKey ? it.skip : it;

/** `it` for cases that hold only on a sandbox deployment (APP_ENV=sandbox), asked of the server. */
export const itSandbox: jest.It = serverAppEnv() === 'production' ? it.skip : it;

/** `it` for cases that hold only on a production deployment (https-only webhooks and the like). */
export const itProduction: jest.It = serverAppEnv() === 'production' ? it : it.skip;

/** A value only the in-process app has: reading it in remote mode fails the test, naming it. */
function localOnly<T>(what: string): T {
  return new Proxy({} as object, {
    get() {
      throw new Error(`${what} exists only with the in-process app; mark this case itLocal.`);
    },
  }) as T;
}

function credentials(c: { id: string; public_key: string; secret: string }): TestCredentials {
  return { id: c.id, publicKey: c.public_key, secret: c.secret };
}

/**
 * Boots the real AppModule exactly as main.ts does (configureApp), on this file's own database
 * cloned from the migrated template. With E2E_BASE_URL set, talks to that deployment instead.
 */
export async function createTestContext(
  options: { controllers?: Type<unknown>[] } = {},
): Promise<TestContext> {
  if (isRemote) {
    return remoteContext();
  }
  const fileDb = process.env.TEST_FILE_DB as string;
  await withAdmin((admin) => admin.query(`CREATE DATABASE "${fileDb}" TEMPLATE "${templateDb()}"`));
  const databaseUrl = process.env.DATABASE_URL as string;
  const moduleRef = await Test.createTestingModule({
    imports: [AppModule],
    controllers: options.controllers ?? [],
  }).compile();
  const app: INestApplication = moduleRef.createNestApplication({ bodyParser: false, bufferLogs: true });
  configureApp(app);
  await app.init();
  const dbOptions: DataSourceOptions = {
    ...dataSourceOptions(databaseUrl),
    entities: [TenantEntity, ApiKeyEntity],
  };
  const dataSource = await new DataSource(dbOptions).initialize();
  const tenancy = new TenancyService(
    dataSource.getRepository(TenantEntity),
    dataSource.getRepository(ApiKeyEntity),
  );
  const server = app.getHttpServer();

  return {
    app,
    dataSource,
    tenancy,
    // Every response is checked against the committed OpenAPI document (openapi-validation.ts).
    http: () => validatingResponses(request(server)),
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
      await withAdmin((admin) =>
        admin.query(`DROP DATABASE IF EXISTS "${process.env.TEST_FILE_DB}" WITH (FORCE)`),
      );
    },
  };
}

/**
 * Against a deployed sandbox: HTTP only. Tenants are made through the sandbox admin API, named
 * after the run, and erased (with all their data) when the file closes its context.
 */
function remoteContext(): TestContext {
  const created: string[] = [];
  const http = () => validatingResponses(request(remoteBaseUrl()));
  return {
    app: undefined,
    dataSource: localOnly<DataSource>('ctx.dataSource'),
    tenancy: localOnly<TenancyService>('ctx.tenancy'),
    http,
    async createTenant(opts = {}) {
      const res = await http()
        .post('/v1/sandbox/tenants')
        .set('Authorization', `Bearer ${adminToken()}`)
        .send({
          name: `${runTenantPrefix()}${opts.name ?? 'Test partner'}`.slice(0, 100),
          products: opts.products ?? [],
          fixedIncomeEnabled: opts.fixedIncome ?? false,
        });
      if (res.status !== 201) {
        throw new Error(`POST /v1/sandbox/tenants answered ${res.status}: ${res.text}`);
      }
      created.push(res.body.tenant_id);
      return {
        tenantId: res.body.tenant_id,
        test: credentials(res.body.keys.test),
        live: credentials(res.body.keys.live),
      };
    },
    async close() {
      for (const tenantId of created.splice(0)) {
        await deleteTenant(tenantId);
      }
    },
  };
}

/**
 * A URL a real client (a browser) can open: the deployment's own remotely, else the in-process
 * app listening on a free loopback port.
 */
export async function listeningUrl(ctx: TestContext): Promise<string> {
  if (!ctx.app) {
    return remoteBaseUrl();
  }
  await ctx.app.listen(0, '127.0.0.1');
  const { port } = ctx.app.getHttpServer().address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

/** Authorization header value for HTTP Basic with a key pair. */
export function basic(creds: TestCredentials): string {
  return `Basic ${Buffer.from(`${creds.publicKey}:${creds.secret}`).toString('base64')}`;
}
