import { createInvestor, investorKey } from '../investors/fixtures';
import { generateKeyPairSync } from 'node:crypto';
import { CredentialCache } from 'src/core/auth/credential-cache';
import { EVENT_TYPES } from 'src/core/events/event-types';
import { basic, isRemote, itLocal, itTrustedJwt, useTenant, useTestContext } from '../support/app';
import type { TestCredentials, TestTenant } from '../support/app';
import { expectSvcError } from '../support/errors';
import { adminToken } from '../support/remote';
import { signJwt } from '../support/jwt';
import { ProbeController } from '../support/probe.controller';

describe('Authentication and access', () => {
  const ctx = useTestContext({ controllers: [ProbeController] });
  const tenant = useTenant(ctx);

  describe('every failure answers the same 401 SVC-401-001', () => {
    const cases = failureCases();

    it.each(cases)('%s', async (_name, header) => {
      const value = header();
      const req = eventTypes();
      const res = value === undefined ? await req : await req.set('Authorization', value);
      expectSvcError(res, 'SVC-401-001', { message: 'Invalid or missing credentials.' });
      expect(res.headers['www-authenticate']).toContain('Basic');
    });

    it('a revoked key stops working', async () => {
      const investor = await createInvestor(ctx, tenant.test);
      const creds = await investorKey(ctx, tenant.test, investor.id);
      const markets = () => ctx.http().get('/v1/markets').set('Authorization', basic(creds));
      expect((await markets()).status).toBe(200);
      const revoked = await ctx
        .http()
        .post(`/v1/investors/${investor.id}/api-keys/${creds.id}/revoke`)
        .set('Authorization', basic(tenant.test));
      expect(revoked.status).toBe(200);
      // The cache keeps a key at most AUTH_CACHE_TTL_MS (4 s): within 5 s every process refuses it.
      const deadline = Date.now() + 5000;
      let status = 200;
      while (Date.now() < deadline && status === 200) {
        status = (await markets()).status;
        if (status === 200) {
          await new Promise((r) => setTimeout(r, 250));
        }
      }
      expectSvcError(await markets(), 'SVC-401-001');
    });

    itLocal('a revocation in this process applies at once once the cache forgets the key', async () => {
      const created = await ctx.tenancy.createKey({ tenantId: tenant.tenantId, environment: 'TEST' });
      const creds = { id: created.key.id, publicKey: created.key.public_key, secret: created.secret };
      expect((await eventTypes().set('Authorization', basic(creds))).status).toBe(200);
      await ctx.tenancy.revokeKey(created.key.id);
      ctx.app!.get(CredentialCache).forgetKey(creds.publicKey);
      expectSvcError(await eventTypes().set('Authorization', basic(creds)), 'SVC-401-001');
    });

    it('an expired key is refused', async () => {
      // An investor key that expires two seconds from now by the server's clock (its Date header).
      const investor = await createInvestor(ctx, tenant.test);
      const serverNow = Date.parse((await ctx.http().get('/health/ready')).headers.date as string);
      const expiresAt = serverNow + 3000;
      const created = await ctx
        .http()
        .post(`/v1/investors/${investor.id}/api-keys`)
        .set('Authorization', basic(tenant.test))
        .send({ expires_at: new Date(expiresAt).toISOString() });
      expect(created.status).toBe(201);
      const creds = { id: created.body.id, publicKey: created.body.public_key, secret: created.body.secret };
      const own = () => ctx.http().get(`/v1/investors/${investor.id}`).set('Authorization', basic(creds));
      expect((await own()).status).toBe(200);
      while (Date.parse((await ctx.http().get('/health/ready')).headers.date as string) <= expiresAt) {
        await new Promise((r) => setTimeout(r, 250));
      }
      expectSvcError(await own(), 'SVC-401-001', { message: 'Invalid or missing credentials.' });
    });

    it('a wrong secret and an unknown key take about the same time', async () => {
      const once = async (header: string) => {
        const start = process.hrtime.bigint();
        await eventTypes().set('Authorization', header);
        return Number(process.hrtime.bigint() - start) / 1e6;
      };
      const wrongSecret = basic({ ...tenant.test, secret: 'sk_test_wrong' });
      const unknownKey = basic({ id: 'x', publicKey: 'pk_test_nobody', secret: 'sk_test_wrong' });
      await once(wrongSecret);
      // Side by side, in turn, so that the machine's load (other files run beside this one) falls
      // on both alike; the median of each leaves out the odd request a collection paused.
      const times = { wrongSecret: [] as number[], unknownKey: [] as number[] };
      for (let i = 0; i < 30; i++) {
        times.wrongSecret.push(await once(wrongSecret));
        times.unknownKey.push(await once(unknownKey));
      }
      const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];
      const [a, b] = [median(times.wrongSecret), median(times.unknownKey)];
      // Loose bound on a noisy machine: neither path is an order of magnitude slower.
      expect(Math.max(a, b) / Math.min(a, b)).toBeLessThan(5);
    });

    /** Each failure, named, and the Authorization header that makes it (none for the first). */
    function failureCases(): Array<[string, () => string | undefined]> {
      return [
        ['no Authorization header', () => undefined],
        ['an unknown scheme', () => 'Digest username="x"'],
        ['Basic that is not base64 of key:secret', () => 'Basic !!!not-base64'],
        [
          'Basic with an unknown public key',
          () => basic({ id: 'x', publicKey: 'pk_test_unknown', secret: 'sk_test_x' }),
        ],
        ['Basic with a wrong secret', () => basic({ ...tenant.test, secret: `${tenant.test.secret}x` })],
        [
          'Basic with an empty secret',
          () => `Basic ${Buffer.from(`${tenant.test.publicKey}:`).toString('base64')}`,
        ],
        ['Bearer that is not a JWT', () => 'Bearer not.a.jwt'],
        [
          'Bearer signed by another key',
          () =>
            `Bearer ${signJwt({ tenant_id: tenant.tenantId }, { privateKey: generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey })}`,
        ],
        [
          'Bearer that has expired',
          () => `Bearer ${signJwt({ tenant_id: tenant.tenantId }, { expiresInSeconds: -60 })}`,
        ],
        [
          'Bearer with the wrong audience',
          () => `Bearer ${signJwt({ tenant_id: tenant.tenantId, aud: 'someone-else' })}`,
        ],
        [
          'Bearer with the wrong issuer',
          () => `Bearer ${signJwt({ tenant_id: tenant.tenantId, iss: 'https://evil.example/' })}`,
        ],
        ['Bearer without tenant_id', () => `Bearer ${signJwt({ sub: 'user-1' })}`],
        ['Bearer naming an unknown tenant', () => `Bearer ${signJwt({ tenant_id: 'ten_doesnotexist' })}`],
      ];
    }
  });

  describe('success', () => {
    it('HTTP Basic with a test key gives livemode false', async () => {
      const res = await eventTypes().set('Authorization', basic(tenant.test));
      expect(res.status).toBe(200);
      expect(await recordedPrincipal(res, tenant.test)).toEqual({
        livemode: false,
        api_key_id: tenant.test.id,
        investor_id: null,
      });
      if (!isRemote) {
        const probe = await ctx.http().get('/v1/probe/whoami').set('Authorization', basic(tenant.test));
        expect(probe.status).toBe(200);
        expect(probe.body).toEqual({
          object: 'principal',
          livemode: false,
          tenant_id: tenant.tenantId,
          investor_id: null,
          method: 'basic',
        });
      }
    });

    it('HTTP Basic with a test key writes test data, with a live key live data', async () => {
      for (const [creds, livemode] of [
        [tenant.test, false],
        [tenant.live, true],
      ] as const) {
        const res = await ctx
          .http()
          .post('/v1/webhooks')
          .set('Authorization', basic(creds))
          .send({ name: 'mode', url: 'https://8.8.8.8/hooks', eventTypeNames: ['order.*'] });
        expect(res.status).toBe(201);
        expect(res.body.livemode).toBe(livemode);
      }
    });

    itTrustedJwt('Bearer JWT with tenant_id, investor_id and livemode claims', async () => {
      const token = signJwt({
        sub: 'user-7',
        tenant_id: tenant.tenantId,
        investor_id: 'inv_abc',
        livemode: true,
      });
      // An investor-scoped principal: refused on a tenant-level route, yet recorded as who it is.
      const res = await eventTypes().set('Authorization', `Bearer ${token}`);
      expectSvcError(res, 'SVC-403-001');
      expect(await recordedPrincipal(res, tenant.live)).toEqual({
        livemode: true,
        api_key_id: null,
        investor_id: 'inv_abc',
      });
      if (!isRemote) {
        const probe = await ctx.http().get('/v1/probe/whoami').set('Authorization', `Bearer ${token}`);
        expect(probe.status).toBe(200);
        expect(probe.body).toEqual({
          object: 'principal',
          livemode: true,
          tenant_id: tenant.tenantId,
          investor_id: 'inv_abc',
          method: 'jwt',
        });
      }
    });

    itTrustedJwt('Bearer JWT livemode defaults to false', async () => {
      const token = signJwt({ tenant_id: tenant.tenantId });
      const res = await eventTypes().set('Authorization', `Bearer ${token}`);
      expect(res.status).toBe(200);
      expect(await recordedPrincipal(res, tenant.test)).toEqual({
        livemode: false,
        api_key_id: null,
        investor_id: null,
      });
      if (!isRemote) {
        const probe = await ctx.http().get('/v1/probe/whoami').set('Authorization', `Bearer ${token}`);
        expect(probe.body.livemode).toBe(false);
      }
    });

    it('the first route answers the event types as a list envelope', async () => {
      const res = await eventTypes().set('Authorization', basic(tenant.test));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ object: 'list', url: '/v1/webhooks/event-types', has_more: false });
      const names = (res.body.data as Array<{ name: string }>).map((d) => d.name);
      expect(names).toEqual(
        expect.arrayContaining([
          'account.created',
          'account.updated',
          'order.accepted',
          'order.filled',
          'order.partially_filled',
          'order.canceled',
          'order.rejected',
          'transfer.deposit.initiated',
          'transfer.deposit.completed',
          'transfer.deposit.failed',
          'transfer.withdrawal.initiated',
          'transfer.withdrawal.completed',
          'transfer.withdrawal.failed',
          'document.approved',
          'document.rejected',
        ]),
      );
      for (const item of res.body.data) {
        expect(Object.keys(item).sort()).toEqual(['description', 'livemode', 'name', 'object']);
        expect(item).toMatchObject({ object: 'event_type', livemode: false });
      }
      // Spec, Resource envelope: livemode is the mode of the key that asked.
      const live = await eventTypes().set('Authorization', basic(tenant.live));
      expect(live.status).toBe(200);
      expect((live.body.data as Array<{ livemode: boolean }>).map((d) => d.livemode)).toEqual(
        names.map(() => true),
      );
    });

    it('the legacy prefix reaches the same handler', async () => {
      const res = await ctx
        .http()
        .get('/legacy/v1/webhooks/event-types')
        .set('Authorization', basic(tenant.test));
      expect(res.status).toBe(200);
      expect(res.body.object).toBe('list');
      expect(res.body.data).toHaveLength(EVENT_TYPES.length);
    });
  });

  describe('scope and entitlements', () => {
    it('an investor-scoped key is refused on a tenant-level route with 403 SVC-403-001', async () => {
      const investor = await createInvestor(ctx, tenant.test);
      const res = await eventTypes().set(
        'Authorization',
        basic(await investorKey(ctx, tenant.test, investor.id)),
      );
      expectSvcError(res, 'SVC-403-001');
    });

    itTrustedJwt('an investor-scoped JWT is refused on a tenant-level route', async () => {
      const token = signJwt({ tenant_id: tenant.tenantId, investor_id: 'inv_x' });
      expectSvcError(await eventTypes().set('Authorization', `Bearer ${token}`), 'SVC-403-001');
    });

    const quote = '/v1/market-data/assets/AAPL/quote';

    it('a disabled add-on answers 403 with the legacy body', async () => {
      const res = await ctx.http().get(quote).set('Authorization', basic(tenant.test));
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        status: 'error',
        code: 'PRODUCT_NOT_ENABLED',
        message: 'The market_data product is not enabled for this tenant. Contact support to enable it.',
      });
      expect(res.headers['request-id']).toMatch(/^req_/);
    });

    it('an enabled add-on answers, and support can switch it off again', async () => {
      const withProduct = await ctx.createTenant({ products: ['market_data'] });
      const ok = await ctx.http().get(quote).set('Authorization', basic(withProduct.test));
      expect(ok.status).toBe(200);
      // Support switches it off (the sandbox admin API, as the CLI would); cached keys see it
      // within AUTH_CACHE_TTL_MS (at most 5 s).
      const patched = await ctx
        .http()
        .patch(`/v1/sandbox/tenants/${withProduct.tenantId}`)
        .set('Authorization', `Bearer ${adminToken()}`)
        .send({ products: [] });
      expect(patched.status).toBe(200);
      const deadline = Date.now() + 6000;
      let off = await ctx.http().get(quote).set('Authorization', basic(withProduct.test));
      while (off.status === 200 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 250));
        off = await ctx.http().get(quote).set('Authorization', basic(withProduct.test));
      }
      expect(off.status).toBe(403);
      expect(off.body.code).toBe('PRODUCT_NOT_ENABLED');
    });

    it('fixedIncomeEnabled off answers 403 SVC-403-002, on lets the call through', async () => {
      // A bond order (a Treasury note): the entitlement is checked before the account's state, so
      // with it on the same order goes on to the business rules (this account is not ACTIVE yet).
      const bondOrder = async (creds: TestTenant['test']) => {
        const investor = await createInvestor(ctx, creds, { enabled_assets: ['us_equity', 'bonds'] });
        return ctx
          .http()
          .post(`/v1/investors/${investor.id}/orders`)
          .set('Authorization', basic(creds))
          .send({ symbol: '91282CQS3', side: 'buy', type: 'market', time_in_force: 'day', quantity: '1000' });
      };
      expectSvcError(await bondOrder(tenant.test), 'SVC-403-002');
      const bonds = await ctx.createTenant({ fixedIncome: true });
      expectSvcError(await bondOrder(bonds.test), 'SVC-422-001', { param: 'investor_id' });
    });

    it('test helpers answer 404 to live keys', async () => {
      expect(
        (await ctx.http().get('/v1/test_helpers/clock').set('Authorization', basic(tenant.test))).status,
      ).toBe(200);
      expectSvcError(
        await ctx.http().get('/v1/test_helpers/clock').set('Authorization', basic(tenant.live)),
        'SVC-404-001',
      );
    });
  });

  const eventTypes = () => ctx.http().get('/v1/webhooks/event-types');

  /**
   * Who a request was authenticated as, as the service recorded it (GET /v1/request-logs/{id},
   * read with a tenant key of the request's mode): what the in-process probe route answers directly.
   */
  async function recordedPrincipal(res: { headers: Record<string, string> }, reader: TestCredentials) {
    const requestId = res.headers['request-id'];
    const deadline = Date.now() + 10_000;
    for (;;) {
      const log = await ctx.http().get(`/v1/request-logs/${requestId}`).set('Authorization', basic(reader));
      if (log.status === 200) {
        return {
          livemode: log.body.livemode,
          api_key_id: log.body.api_key_id,
          investor_id: log.body.investor_id,
        };
      }
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
});
