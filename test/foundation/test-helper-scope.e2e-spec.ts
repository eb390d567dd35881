import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import type { WebhookReceiver } from '../investors/receiver';
import { basic, TestCredentials, useTenant, useTestContext } from '../support/app';
import { expectSvcError } from '../support/errors';
import { createInvestor, investorKey } from '../investors/fixtures';
import { startWebhookSink } from './support/webhook-sink';
import { activeInvestor, fundingBody, linkBankAccount } from '../wallet/support/wallet';

/**
 * The product decisions, sandbox behaviour: helpers that change tenant-wide state are tenant-level (403
 * SVC-403-001 for investor keys); helpers acting on one investor's object also accept that
 * investor's key, and another investor's object is absent (404). Live keys never see a helper.
 */
describe('Test helper scope', () => {
  const ctx = useTestContext();
  const tenant = useTenant(ctx);
  beforeAll(() => tenantObjects());
  afterAll(() => sink?.receiver.stop());

  it('every test helper is classified here', () => {
    expect(
      [...Object.keys(tenantWide), ...Object.keys(perInvestor), ...Object.keys(perTransaction)].sort(),
    ).toEqual(testHelperOperations());
  });

  const tenantWide: Record<string, { path: () => string; body: object }> = {
    setTestPrices: { path: () => '/v1/test_helpers/prices', body: { symbol: 'AAPL', price: '190.00' } },
    sendWebhookTestEvent: { path: () => `/v1/test_helpers/webhooks/${webhookId}/test-event`, body: {} },
    moveTestClock: { path: () => '/v1/test_helpers/clock', body: { advance_seconds: 60 } },
    testHelperAccrueCashSweep: {
      path: () => '/v1/test_helpers/cash-sweep/accrue',
      body: { through: '2026-01-01' },
    },
    createWebhookSink: { path: () => '/v1/test_helpers/webhook-sinks', body: {} },
    setTestFxRate: {
      path: () => '/v1/test_helpers/fx-rates',
      body: { from_currency: 'USD', to_currency: 'NGN', rate: '1500' },
    },
    testHelperAnnounceCorporateAction: {
      path: () => '/v1/test_helpers/corporate-actions',
      body: {
        type: 'cash_dividend',
        symbol: 'AAPL',
        cash_rate: '0.24',
        ex_date: '2030-01-02',
        payable_date: '2030-01-09',
      },
    },
    testHelperCancelCorporateAction: {
      path: () => `/v1/test_helpers/corporate-actions/${corporateActionId}/cancel`,
      body: {},
    },
  };
  const created = ['/v1/test_helpers/webhook-sinks', '/v1/test_helpers/corporate-actions'];
  const perInvestor: Record<string, (investorId: string) => string> = {
    testHelperRejectKyc: (id) => `/v1/test_helpers/investors/${id}/kyc/reject`,
    testHelperApproveKyc: (id) => `/v1/test_helpers/investors/${id}/kyc/approve`,
  };

  const perTransaction: Record<string, (transactionId: string) => string> = {
    testHelperSettleTransaction: (id) => `/v1/test_helpers/wallet/transactions/${id}/settle`,
    testHelperFailTransaction: (id) => `/v1/test_helpers/wallet/transactions/${id}/fail`,
  };

  it.each(Object.keys(perTransaction))(
    '%s acts on one investor’s transaction: its own key or a tenant key',
    async (operation) => {
      const path = perTransaction[operation];
      const deposit = async (creds: TestCredentials, investor: { id: string; account_id: string }) => {
        const bank = await linkBankAccount(ctx, tenant.test, investor.id);
        const res = await call(
          creds,
          `/v1/wallet/accounts/${investor.account_id}/funding`,
          fundingBody(bank.id, '5.00'),
        );
        return res.body.transaction_id as string;
      };
      const owner = await activeInvestor(ctx, tenant.test);
      const ownerKey = await investorKey(ctx, tenant.test, owner.id);
      const stranger = await activeInvestor(ctx, tenant.test);
      const theirs = await deposit(tenant.test, stranger);
      expectSvcError(await call(ownerKey, path(theirs)), 'SVC-404-001');
      const own = await deposit(ownerKey, owner);
      expectSvcError(await call(tenant.live, path(own)), 'SVC-404-001');
      expect((await call(ownerKey, path(own))).status).toBe(200);
      expect((await call(tenant.test, path(theirs))).status).toBe(200);
    },
  );

  it.each(Object.keys(tenantWide))('%s changes tenant-wide state: tenant keys only', async (operation) => {
    const { path, body } = tenantWide[operation];
    expectSvcError(await call(key, path(), body), 'SVC-403-001');
    expectSvcError(await call(tenant.live, path(), body), 'SVC-404-001');
    expect((await call(tenant.test, path(), body)).status).toBe(created.includes(path()) ? 201 : 200);
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

  const call = (creds: TestCredentials, path: string, body: object = {}) =>
    ctx.http().post(path).set('Authorization', basic(creds)).send(body);

  let sink: { url: string; receiver: WebhookReceiver };
  let mine: Record<string, any>;
  let other: Record<string, any>;
  let key: TestCredentials;
  let webhookId: string;
  let corporateActionId: string;

  /** A webhook sink, two investors and a key of the first, a webhook endpoint and a corporate action. */
  async function tenantObjects(): Promise<void> {
    sink = await startWebhookSink({ ctx, creds: tenant.test });
    mine = await createInvestor(ctx, tenant.test);
    other = await createInvestor(ctx, tenant.test);
    key = await investorKey(ctx, tenant.test, mine.id);
    const webhook = await ctx
      .http()
      .post('/v1/webhooks')
      .set('Authorization', basic(tenant.test))
      .send({ name: 'scope', url: sink.url, eventTypeNames: ['order.*'] });
    webhookId = webhook.body.id;
    const action = await ctx
      .http()
      .post('/v1/test_helpers/corporate-actions')
      .set('Authorization', basic(tenant.test))
      .send({ type: 'stock_split', symbol: 'MSFT', old_rate: '1', new_rate: '2', ex_date: '2030-01-02' });
    corporateActionId = action.body.id;
  }
});

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
