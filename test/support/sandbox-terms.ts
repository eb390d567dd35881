import type { TestContext } from './app';
import { adminToken } from './remote';

/** The terms support sets with the CLI, as the sandbox admin API names them. */
export type SandboxTerms =
  'commission' | 'transfer-settings' | 'cash-sweep-rates' | 'corporate-action-settings';

/**
 * Changes a tenant's terms (an empty body: reads them) through the sandbox admin API, which
 * answers what the CLI prints; anything but 200 throws with the answer.
 */
export async function sandboxTerms(
  ctx: TestContext,
  tenantId: string,
  terms: SandboxTerms | string,
  body: object,
): Promise<Record<string, unknown>> {
  const res = await ctx
    .http()
    .patch(`/v1/sandbox/tenants/${tenantId}/${terms}`)
    .set('Authorization', `Bearer ${adminToken()}`)
    .send(body);
  if (res.status !== 200) {
    throw new Error(`PATCH /v1/sandbox/tenants/${tenantId}/${terms} answered ${res.status}: ${res.text}`);
  }
  return res.body as Record<string, unknown>;
}
