import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import type { WebhookReceiver } from '../investors/receiver';
import { basic, createTestContext, TestContext, TestCredentials, TestTenant } from '../support/app';
import { expectSvcError } from '../support/errors';
import { createInvestor, investorKey } from '../investors/fixtures';
import { startWebhookSink } from './support/webhook-sink';

/** operationIds of every POST under /v1/test_helpers in the committed OpenAPI document. */
function testHelperOperations(): string[] {
  const spec = load(readFileSync(join(__dirname, '..', '..', 'openapi', 'openapi.yaml'), 'utf8')) as {
    paths: Record<string, Record<string, { operationId: string }>>;
  };
  return Object.entries(spec.paths)
    .filter(([path, ops]) => path.startsWith('/v1/test_helpers/') && ops.post)
    .map(([, ops]) => ops.post.operationId)
    .sort();
}

/**
 * DECISIONS.md, Sandbox behaviour: helpers that change tenant-wide state are tenant-level (403
 * SVC-403-001 for investor keys); helpers acting on one investor's object also accept that
 * investor's key, and another investor's object is absent (404). Live keys never see a helper.
 */
describe('Test helper scope', () => {
  let ctx: TestContext;
  let tenant: TestTenant;
  let sink: { url: string; receiver: WebhookReceiver };
  let mine: Record<string, any>;
  let other: Record<string, any>;
  let key: TestCredentials;
  let webhookId: string;

  beforeAll(async () => {
    ctx = await createTestContext();
    tenant = await ctx.createTenant();
    sink = await startWebhookSink();
    mine = await createInvestor(ctx, tenant.test);
    other = await createInvestor(ctx, tenant.test);
    key = await investorKey(ctx, tenant.test, mine.id);
    const webhook = await ctx
      .http()
      .post('/v1/webhooks')
      .set('Authorization', basic(tenant.test))
      .send({ name: 'scope', url: sink.url, eventTypeNames: ['order.*'] });
    webhookId = webhook.body.id;
  });

  afterAll(async () => {
    await sink.receiver.stop();
    await ctx.close();
  });

  const call = (creds: TestCredentials, path: string, body: object = {}) =>
    ctx.http().post(path).set('Authorization', basic(creds)).send(body);

  const tenantWide: Record<string, { path: () => string; body: object }> = {
    setTestPrices: { path: () => '/v1/test_helpers/prices', body: { symbol: 'AAPL', price: '190.00' } },
    sendWebhookTestEvent: { path: () => `/v1/test_helpers/webhooks/${webhookId}/test-event`, body: {} },
    moveTestClock: { path: () => '/v1/test_helpers/clock', body: { advance_seconds: 60 } },
  };
  const perInvestor: Record<string, (investorId: string) => string> = {
    testHelperRejectKyc: (id) => `/v1/test_helpers/investors/${id}/kyc/reject`,
    testHelperApproveKyc: (id) => `/v1/test_helpers/investors/${id}/kyc/approve`,
  };

  it('every test helper is classified here', () => {
    expect([...Object.keys(tenantWide), ...Object.keys(perInvestor)].sort()).toEqual(testHelperOperations());
  });

  it.each(Object.keys(tenantWide))('%s changes tenant-wide state: tenant keys only', async (operation) => {
    const { path, body } = tenantWide[operation];
    expectSvcError(await call(key, path(), body), 'SVC-403-001');
    expectSvcError(await call(tenant.live, path(), body), 'SVC-404-001');
    expect((await call(tenant.test, path(), body)).status).toBe(200);
  });

  it.each(Object.keys(perInvestor))(
    '%s acts on one investor: its own key or a tenant key',
    async (operation) => {
      const path = perInvestor[operation];
      expectSvcError(await call(key, path(other.id)), 'SVC-404-001');
      expectSvcError(await call(tenant.live, path(mine.id)), 'SVC-404-001');
      expect((await call(key, path(mine.id))).status).toBe(200);
      const fresh = await createInvestor(ctx, tenant.test);
      expect((await call(tenant.test, path(fresh.id))).status).toBe(200);
    },
  );
});
