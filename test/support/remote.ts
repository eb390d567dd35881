import request from 'supertest';

/**
 * Remote mode: with E2E_BASE_URL set the suite talks to a deployed sandbox over HTTP only.
 * Tenants come from the sandbox admin API (E2E_ADMIN_TOKEN), receivers are the sandbox's webhook
 * sinks, and nothing touches the deployment's database or Redis. What the server is
 * (app_env, the base of doc_url and request_log_url) is learned from its own answers in
 * global-setup and handed to the workers through E2E_SERVER_* variables.
 */
export const isRemote = Boolean(process.env.E2E_BASE_URL);

export function remoteBaseUrl(): string {
  return (process.env.E2E_BASE_URL ?? '').replace(/\/$/, '');
}

export function adminToken(): string {
  const token = process.env.E2E_ADMIN_TOKEN ?? process.env.SANDBOX_ADMIN_TOKEN;
  if (!token) {
    throw new Error('E2E_ADMIN_TOKEN must be set to the sandbox’s SANDBOX_ADMIN_TOKEN in remote mode.');
  }
  return token;
}

/** Every tenant a run makes is named after the run, so its leftovers can be found and erased. */
export function runTenantPrefix(): string {
  return `e2e ${process.env.TEST_RUN_ID ?? 'norun'} `;
}

/** What global-setup learned about the server (remote mode). */
export interface ServerFacts {
  appEnv: 'sandbox' | 'production';
  publicUrl: string;
  dashboardUrl: string;
}

/** Asks the deployment what it is: /health/ready for app_env, an error envelope for its urls. */
export async function probeServer(baseUrl: string): Promise<ServerFacts> {
  const ready = await request(baseUrl).get('/health/ready');
  if (ready.status !== 200 || typeof ready.body?.app_env !== 'string') {
    throw new Error(`GET ${baseUrl}/health/ready answered ${ready.status}: ${ready.text}`);
  }
  const refused = await request(baseUrl).get('/v1/webhooks');
  const error = refused.body?.error as
    { doc_url?: string; request_log_url?: string; code?: string } | undefined;
  const requestId = refused.headers['request-id'];
  if (!error?.doc_url || !error.request_log_url || !requestId) {
    throw new Error(`GET /v1/webhooks without credentials answered ${refused.status}: ${refused.text}`);
  }
  return {
    appEnv: ready.body.app_env,
    publicUrl: error.doc_url.replace(/\/docs\/errors#.*$/, ''),
    dashboardUrl: error.request_log_url.replace(new RegExp(`/logs/${requestId}$`), ''),
  };
}

/** The deployment's APP_ENV (remote), or the one this process's in-process app runs with. */
export function serverAppEnv(): string {
  return (isRemote ? process.env.E2E_SERVER_APP_ENV : process.env.APP_ENV) ?? 'sandbox';
}

/** Tenants of this run still on the sandbox (admin API), for the final clean-up check. */
export async function listRunTenants(): Promise<string[]> {
  const res = await request(remoteBaseUrl())
    .get('/v1/sandbox/tenants')
    .query({ name_prefix: runTenantPrefix() })
    .set('Authorization', `Bearer ${adminToken()}`);
  if (res.status !== 200) {
    throw new Error(`GET /v1/sandbox/tenants answered ${res.status}: ${res.text}`);
  }
  return (res.body.data as Array<{ tenant_id: string }>).map((t) => t.tenant_id);
}

export async function deleteTenant(tenantId: string, baseUrl = remoteBaseUrl()): Promise<void> {
  const res = await request(baseUrl)
    .delete(`/v1/sandbox/tenants/${tenantId}`)
    .set('Authorization', `Bearer ${adminToken()}`);
  if (res.status !== 200 && res.status !== 404) {
    throw new Error(`DELETE /v1/sandbox/tenants/${tenantId} answered ${res.status}: ${res.text}`);
  }
}

/** A hook's or test's time budget: three times longer against a deployed sandbox. */
export function remoteAware(localMs: number): number {
  return isRemote ? localMs * 3 : localMs;
}
