import { basic, TestCredentials, TestTenant, useTestContext } from '../support/app';
import { expectSvcError } from '../support/errors';
import { createInvestor, investorBody, investorKey, PDF, upload, useTempStorage } from './fixtures';

/**
 * Every route of investors, accounts, KYC, documents, disclosures and API keys, addressed with
 * tenant A's ids, tried with keys that must not reach them.
 */
describe('Isolation between tenants, investors and modes', () => {
  useTempStorage();
  allowManyFailedAuthentications();
  const ctx = useTestContext();
  let a: TestTenant;
  let b: TestTenant;
  let investor: Record<string, any>;
  let documentId: string;
  let keyOfA: TestCredentials;
  let routes: Route[];
  beforeAll(() => tenantAObjects());

  it('every route refuses missing or revoked credentials with 401 SVC-401-001', async () => {
    const other = await createInvestor(ctx, a.test);
    const revoked = await investorKey(ctx, a.test, other.id);
    await ctx
      .http()
      .post(`/v1/investors/${other.id}/api-keys/${revoked.id}/revoke`)
      .set('Authorization', basic(a.test));
    const all: Route[] = [
      ...routes,
      ['get', '/v1/investors'],
      ['post', '/v1/investors', {}],
      ['get', '/v1/accounts'],
      ['get', '/v1/disclosures'],
    ];
    for (const [method, path, body] of all) {
      const anonymous = ctx.http()[method](path);
      expectSvcError(await (body ? anonymous.send(body) : anonymous), 'SVC-401-001');
      expectSvcError(await call(revoked, [method, path, body]), 'SVC-401-001');
    }
  });

  it("tenant B's keys get 404 on every one of tenant A's ids", async () => {
    for (const route of routes) {
      const res = await call(b.test, route);
      expect([route[0], route[1], res.status]).toEqual([route[0], route[1], 404]);
      expectSvcError(res, 'SVC-404-001');
    }
    for (const route of routes.filter(([method]) => method === 'get')) {
      expectSvcError(await call(b.live, route), 'SVC-404-001');
    }
    const upload404 = await upload(ctx, b.test, investor.id, 'passport', {
      bytes: PDF,
      name: 'p.pdf',
      contentType: 'application/pdf',
    });
    expectSvcError(upload404, 'SVC-404-001');
    const accounts = await ctx.http().get('/v1/accounts').set('Authorization', basic(b.test));
    expect(accounts.body).toEqual([]);
    const investors = await ctx.http().get('/v1/investors').set('Authorization', basic(b.test));
    expect(investors.body.data).toEqual([]);
    await expectUntouched();
  });

  it("tenant A's live key gets 404 on every one of its test ids", async () => {
    for (const route of routes) {
      const res = await call(a.live, route);
      expect([route[0], route[1], res.status]).toEqual([route[0], route[1], 404]);
    }
    expect((await ctx.http().get('/v1/accounts').set('Authorization', basic(a.live))).body).toEqual([]);
    await expectUntouched();
  });

  it("another investor's key gets 404 on the investor's resources and 403 on key management and tenant routes", async () => {
    const other = await createInvestor(ctx, a.test);
    const otherKey = await investorKey(ctx, a.test, other.id);
    // The KYC test helpers act on one investor's object: another investor's id is simply absent (404).
    const forbidden = (path: string) => path.includes('/api-keys') || path.includes('/actions/');
    for (const route of routes) {
      const res = await call(otherKey, route);
      expect([route[0], route[1], res.status]).toEqual([route[0], route[1], forbidden(route[1]) ? 403 : 404]);
    }
    expectSvcError(await call(otherKey, ['get', '/v1/investors']), 'SVC-403-001');
    expectSvcError(await call(otherKey, ['post', '/v1/investors', investorBody()]), 'SVC-403-001');
    const accounts = await ctx.http().get('/v1/accounts').set('Authorization', basic(otherKey));
    expect(accounts.body.map((acc: { id: string }) => acc.id)).toEqual([other.account_id]);
    await expectUntouched();
  });

  /** Tenants A and B; A's investor with a document and an investor key, and every route addressed with their ids. */
  async function tenantAObjects(): Promise<void> {
    a = await ctx.createTenant();
    b = await ctx.createTenant();
    investor = await createInvestor(ctx, a.test);
    documentId = (
      await upload(ctx, a.test, investor.id, 'passport', {
        bytes: PDF,
        name: 'p.pdf',
        contentType: 'application/pdf',
      })
    ).body.id;
    keyOfA = await investorKey(ctx, a.test, investor.id);
    const inv = `/v1/investors/${investor.id}`;
    const acc = `/v1/accounts/${investor.account_id}`;
    routes = [
      ['get', inv],
      ['patch', inv, { metadata: { x: 'y' } }],
      ['post', inv, { metadata: { x: 'y' } }],
      ['get', acc],
      ['post', `${acc}/actions/suspend`],
      ['post', `${acc}/actions/reactivate`],
      ['post', `${acc}/actions/close`],
      ['get', `${inv}/kyc`],
      ['post', `${inv}/kyc`],
      ['post', `/v1/test_helpers/investors/${investor.id}/kyc/approve`],
      ['post', `/v1/test_helpers/investors/${investor.id}/kyc/reject`],
      ['get', `${inv}/documents`],
      ['get', `${inv}/documents/${documentId}`],
      ['get', `${inv}/documents/${documentId}/download`],
      [
        'post',
        `${inv}/agreements`,
        { agreements: [{ agreement: 'customer_agreement', revision: '2025-06', ip_address: '203.0.113.7' }] },
      ],
      ['get', `${inv}/agreements`],
      ['post', `${inv}/api-keys`, { name: 'x' }],
      ['get', `${inv}/api-keys`],
      ['get', `${inv}/api-keys/${keyOfA.id}`],
      ['post', `${inv}/api-keys/${keyOfA.id}/revoke`],
    ];
  }

  const call = (creds: TestCredentials, [method, path, body]: Route) => {
    const req = ctx.http()[method](path).set('Authorization', basic(creds));
    return body ? req.send(body) : req;
  };

  /** Tenant A's objects are exactly as they were. */
  async function expectUntouched(): Promise<void> {
    const seen = await ctx.http().get(`/v1/investors/${investor.id}`).set('Authorization', basic(a.test));
    expect(seen.body).toMatchObject({
      status: 'submitted',
      metadata: { partner_user_id: 'u_1029' },
      agreements: [],
    });
    expect(seen.body.metadata).not.toHaveProperty('x');
    expect((await ctx.http().get('/v1/accounts').set('Authorization', basic(keyOfA))).status).toBe(200);
    const keys = await ctx
      .http()
      .get(`/v1/investors/${investor.id}/api-keys`)
      .set('Authorization', basic(a.test));
    expect(keys.body.data.map((k: { id: string; status: string }) => [k.id, k.status])).toEqual([
      [keyOfA.id, 'active'],
    ]);
  }
});

type Route = [method: 'get' | 'post' | 'patch', path: string, body?: object];

/**
 * Every route is tried with a revoked key and with none: more failed authentications than the
 * failed-authentication limit allows (its own test is test/foundation/rate-limit), so this file's
 * app counts them without refusing. A QA sandbox is started with the same settings. Called before
 * the file's context is made, so the app boots with these limits.
 */
function allowManyFailedAuthentications(): void {
  beforeAll(() => {
    process.env.AUTH_FAILURES_PER_KEY_PER_MINUTE = '100000';
    process.env.AUTH_FAILURES_PER_ADDRESS_PER_MINUTE = '100000';
  });
  afterAll(() => {
    delete process.env.AUTH_FAILURES_PER_KEY_PER_MINUTE;
    delete process.env.AUTH_FAILURES_PER_ADDRESS_PER_MINUTE;
  });
}
