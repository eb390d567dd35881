import type { AddressInfo } from 'node:net';
import type { INestApplication, Type } from '@nestjs/common';
import request from 'supertest';
import type { DataSource } from 'typeorm';
import type { TenancyService } from 'src/core/tenancy/tenancy.service';
import type { Product } from 'src/core/tenancy/tenant.entity';
import { clientAs, type TestClient } from './client';
import { remoteJwtKey } from './jwt';
import { madeBeforeAll } from './made-before-all';
import { tracked } from './open-contexts';
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
  /** Requests as one key (HTTP Basic), over http(). */
  as(creds: TestCredentials): TestClient;
  /** The in-process app; undefined against a deployed sandbox. */
  app: INestApplication | undefined;
  /** Database of the app under test (the file's own clone, or E2E_DATABASE_URL remotely). */
  dataSource: DataSource;
  tenancy: TenancyService;
  createTenant(options?: { products?: Product[]; fixedIncome?: boolean; name?: string }): Promise<TestTenant>;
  close(): Promise<void>;
}

export { isRemote };
export { basic, type TestClient } from './client';

/**
 * The in-process app's modules (the whole AppModule) load only when there is an in-process app:
 * against a deployment no file pays for loading them. Started while this module loads, so the
 * import is done before any hook's time starts.
 */
const localApp = isRemote ? undefined : import('./local-app');

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
    return tracked(() => Promise.resolve(remoteContext()));
  }
  return (await localApp!).createLocalContext(options);
}

/**
 * The file's test context, booted by a beforeAll registered here (so before the file's own hooks)
 * and closed when the file ends, after its afterAll hooks (the e2e environment closes every context
 * still open): `const ctx = useTestContext();` at the top of the describe. A file whose teardown
 * must run after the app has stopped (dropping its queue keys) still calls `ctx.close()` itself.
 */
export function useTestContext(options: { controllers?: Type<unknown>[] } = {}): TestContext {
  return madeBeforeAll('The test context', () => createTestContext(options));
}

/** A tenant of the file's context, made by a beforeAll after the context's: `const tenant = useTenant(ctx);`. */
export function useTenant(
  ctx: TestContext,
  options?: Parameters<TestContext['createTenant']>[0],
): TestTenant {
  return madeBeforeAll('The tenant', () => ctx.createTenant(options));
}

/**
 * Against a deployed sandbox: HTTP only. Tenants are made through the sandbox admin API, named
 * after the run, and erased (with all their data) when the file closes its context.
 */
function remoteContext(baseUrl = remoteBaseUrl()): TestContext {
  const created: string[] = [];
  const http = () => validatingResponses(request(baseUrl));
  return {
    app: undefined,
    dataSource: localOnly<DataSource>('ctx.dataSource'),
    tenancy: localOnly<TenancyService>('ctx.tenancy'),
    http,
    as: (creds) => clientAs(http, creds),
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
        await deleteTenant(tenantId, baseUrl);
      }
    },
  };
}

/**
 * A context over a service process a file started itself (its own database, replicas or Redis):
 * HTTP only, tenants made and erased through its sandbox admin API (SANDBOX_ADMIN_TOKEN).
 */
export function serverContext(baseUrl: string): TestContext {
  return remoteContext(baseUrl);
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
