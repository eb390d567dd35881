import { basic, isRemote, TestCredentials, useTenant, useTestContext } from '../support/app';
import { madeBeforeAll } from '../support/made-before-all';
import { createInvestor, investorKey as issueInvestorKey } from '../investors/fixtures';
import { expectSvcError } from '../support/errors';
import { dropQueueKeys } from './support/webhooks';

describe('Webhook endpoints', () => {
  const ctx = useTestContext();
  const tenant = useTenant(ctx);
  const other = useTenant(ctx);
  const investorKey = madeBeforeAll('The investor key', async () => {
    const investor = await createInvestor(ctx, tenant.test);
    return issueInvestorKey(ctx, tenant.test, investor.id);
  });
  // The queue keys go once the app has stopped.
  afterAll(async () => {
    await ctx.close();
    await dropQueueKeys();
  });

  describe('POST /v1/webhooks', () => {
    it('registers an endpoint (201) and returns its signing secret once', async () => {
      const res = await register({ metadata: { team: 'payments' } });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(/^we_[A-Za-z0-9_-]{22}$/),
        object: 'webhook_endpoint',
        created: expect.any(Number),
        livemode: false,
        metadata: { team: 'payments' },
        name: 'Orders',
        url: receiverUrl,
        eventTypeNames: ['order.*'],
        status: 'enabled',
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      });
      expect(Math.abs(res.body.created - Date.now() / 1000)).toBeLessThan(10);
      const fetched = await ctx.as(tenant.test).get(`/v1/webhooks/${res.body.id}`);
      expect(fetched.status).toBe(200);
      const { secret: _secret, ...withoutSecret } = res.body;
      expect(fetched.body).toEqual(withoutSecret);
    });

    it('the secret is stored encrypted, not in clear, and never answered again', async () => {
      const res = await register({});
      const secret = res.body.secret.slice(6);
      // After its creation no answer shows the secret: read, listed or changed.
      const answers = [
        await ctx.as(tenant.test).get(`/v1/webhooks/${res.body.id}`),
        await ctx.as(tenant.test).get('/v1/webhooks'),
        await ctx.as(tenant.test).patch(`/v1/webhooks/${res.body.id}`, { name: 'Orders again' }),
      ];
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
      expect(answers[1].body.data.map((e: { id: string }) => e.id)).toContain(res.body.id);
      for (const answer of answers) {
        expect(JSON.stringify(answer.body)).not.toContain(secret);
      }
      if (!isRemote) {
        const [row] = await ctx.dataSource.query(
          'SELECT "secret_ciphertext" FROM "webhook_endpoints" WHERE "id" = $1',
          [res.body.id],
        );
        expect(row.secret_ciphertext).toMatch(/^v1:/);
        expect(row.secret_ciphertext).not.toContain(secret);
      }
    });

    it.each([
      [['*']],
      [['order.*', 'transfer.*', 'account.*']],
      [['transfer.deposit.*', 'document.approved', 'kyc.verification.approved']],
      [['order.filled', 'order.partially_filled', 'order.canceled', 'order.rejected', 'order.accepted']],
    ])('accepts the names and wildcards %j', async (names) => {
      const res = await register({ eventTypeNames: names });
      expect(res.status).toBe(201);
      expect(res.body.eventTypeNames).toEqual(names);
    });

    it('drops repeated names', async () => {
      const res = await register({ eventTypeNames: ['order.*', 'account.created', 'order.*'] });
      expect(res.body.eventTypeNames).toEqual(['order.*', 'account.created']);
    });

    it('`events` is not the field: 400 naming eventTypeNames', async () => {
      const res = await ctx.as(tenant.test).post('/v1/webhooks', {
        name: 'Orders',
        url: receiverUrl,
        events: ['order.*'],
      });
      expectSvcError(res, 'SVC-400-001', {
        param: 'events',
        message: 'Unknown field events: list the event names or wildcards to receive in eventTypeNames.',
      });
    });

    it.each([
      [['order.*', 'order.shipped'], 'eventTypeNames[1]'],
      [['orders.*'], 'eventTypeNames[0]'],
      [['order'], 'eventTypeNames[0]'],
      [['account.created', 'webhook.test'], 'eventTypeNames[1]'],
      [['*.filled'], 'eventTypeNames[0]'],
      [[7], 'eventTypeNames[0]'],
    ])('unknown name %j answers 400 SVC-400-001 param %s', async (names, param) => {
      const res = await register({ eventTypeNames: names });
      expectSvcError(res, 'SVC-400-001', {
        param,
        message: /Unknown event type .*GET \/v1\/webhooks\/event-types/,
      });
    });

    it.each([
      [{ name: undefined }, 'SVC-400-002', 'name'],
      [{ url: undefined }, 'SVC-400-002', 'url'],
      [{ eventTypeNames: undefined }, 'SVC-400-002', 'eventTypeNames'],
      [{ eventTypeNames: [] }, 'SVC-400-001', 'eventTypeNames'],
      [{ eventTypeNames: 'order.*' }, 'SVC-400-001', 'eventTypeNames'],
      [{ name: '' }, 'SVC-400-001', 'name'],
      [{ url: 'not a url' }, 'SVC-400-001', 'url'],
      [{ url: 'ftp://127.0.0.1/hooks' }, 'SVC-400-001', 'url'],
      [{ url: 'http://user:pw@127.0.0.1/hooks' }, 'SVC-400-001', 'url'],
      [{ metadata: { n: 1 } }, 'SVC-400-001', 'metadata'],
      [{ metadata: ['a'] }, 'SVC-400-001', 'metadata'],
      [{ status: 'enabled' }, 'SVC-400-001', 'status'],
    ] as const)('%j answers %s param %s', async (change, code, param) => {
      expectSvcError(await register(change), code, { param });
    });

    it('a live key needs https even in the sandbox, and a public host', async () => {
      expectSvcError(await register({}, tenant.live), 'SVC-400-001', {
        param: 'url',
        message: 'url must use https in production and with live keys.',
      });
      expectSvcError(await register({ url: 'https://127.0.0.1/hooks' }, tenant.live), 'SVC-400-001', {
        param: 'url',
        message: /private, loopback or link-local/,
      });
      // A public literal address needs no DNS; nothing is sent to it (no live event is emitted).
      const ok = await register({ url: 'https://8.8.8.8/hooks' }, tenant.live);
      expect(ok.status).toBe(201);
      expect(ok.body.livemode).toBe(true);
    });

    it('the same Idempotency-Key returns the same endpoint', async () => {
      const send = () =>
        ctx
          .http()
          .post('/v1/webhooks')
          .set('Authorization', basic(tenant.test))
          .set('Idempotency-Key', 'webhook-create-1')
          .send({ name: 'Once', url: receiverUrl, eventTypeNames: ['*'] });
      const first = await send();
      const again = await send();
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body.id).toBe(first.body.id);
    });
  });

  describe('GET /v1/webhooks', () => {
    it('lists this tenant and mode only, newest first, without secrets, with cursors', async () => {
      const fresh = await ctx.createTenant();
      const ids: string[] = [];
      for (const name of ['a', 'b', 'c']) {
        ids.push((await register({ name }, fresh.test)).body.id);
      }
      await register({ url: 'https://8.8.8.8/hooks' }, fresh.live);
      await register({}, other.test);
      const res = await ctx.as(fresh.test).get('/v1/webhooks');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ object: 'list', url: '/v1/webhooks', has_more: false });
      expect(res.body.data.map((w: { id: string }) => w.id)).toEqual([...ids].reverse());
      for (const item of res.body.data) {
        expect(item.secret).toBeUndefined();
        expect(item.object).toBe('webhook_endpoint');
      }
      const page1 = await ctx.as(fresh.test).get('/v1/webhooks?limit=2');
      expect(page1.body.has_more).toBe(true);
      expect(page1.body.data.map((w: { id: string }) => w.id)).toEqual([ids[2], ids[1]]);
      const page2 = await ctx.as(fresh.test).get(`/v1/webhooks?limit=2&starting_after=${ids[1]}`);
      expect(page2.body).toMatchObject({ has_more: false });
      expect(page2.body.data.map((w: { id: string }) => w.id)).toEqual([ids[0]]);
      const live = await ctx.as(fresh.live).get('/v1/webhooks');
      expect(live.body.data).toHaveLength(1);
      expect(live.body.data[0].livemode).toBe(true);
    });
  });

  describe('PATCH /v1/webhooks/{id}', () => {
    it('updates any registration field, status and metadata (merged; empty string removes)', async () => {
      const created = (await register({ metadata: { team: 'payments', legacy: 'yes' } })).body;
      const res = await ctx.as(tenant.test).patch(`/v1/webhooks/${created.id}`, {
        name: 'Renamed',
        url: 'http://127.0.0.1:10/new',
        eventTypeNames: ['transfer.*', 'account.updated'],
        status: 'disabled',
        metadata: { legacy: '', region: 'eu' },
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        id: created.id,
        object: 'webhook_endpoint',
        created: created.created,
        livemode: false,
        metadata: { team: 'payments', region: 'eu' },
        name: 'Renamed',
        url: 'http://127.0.0.1:10/new',
        eventTypeNames: ['transfer.*', 'account.updated'],
        status: 'disabled',
      });
      expect((await ctx.as(tenant.test).get(`/v1/webhooks/${created.id}`)).body).toEqual(res.body);
      const enabled = await ctx.as(tenant.test).patch(`/v1/webhooks/${created.id}`, { status: 'enabled' });
      expect(enabled.body.status).toBe('enabled');
      const unchanged = await ctx.as(tenant.test).patch(`/v1/webhooks/${created.id}`, {});
      expect(unchanged.body).toEqual(enabled.body);
    });

    it('validates like registration', async () => {
      const { id } = (await register({})).body;
      const path = `/v1/webhooks/${id}`;
      expectSvcError(
        await ctx.as(tenant.test).patch(path, { eventTypeNames: ['order.*', 'nope'] }),
        'SVC-400-001',
        {
          param: 'eventTypeNames[1]',
        },
      );
      expectSvcError(await ctx.as(tenant.test).patch(path, { events: ['order.*'] }), 'SVC-400-001', {
        param: 'events',
        message: /eventTypeNames/,
      });
      expectSvcError(await ctx.as(tenant.test).patch(path, { status: 'paused' }), 'SVC-400-001', {
        param: 'status',
      });
      expectSvcError(await ctx.as(tenant.test).patch(path, { url: 'gopher://x' }), 'SVC-400-001', {
        param: 'url',
      });
      expectSvcError(await ctx.as(tenant.test).patch(path, { name: null }), 'SVC-400-001', { param: 'name' });
    });
  });

  describe('DELETE /v1/webhooks/{id}', () => {
    it('deletes (200, Stripe-style body); the id is gone afterwards', async () => {
      const { id } = (await register({})).body;
      const res = await ctx.as(tenant.test).delete(`/v1/webhooks/${id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ id, object: 'webhook_endpoint', deleted: true, livemode: false });
      expectSvcError(await ctx.as(tenant.test).get(`/v1/webhooks/${id}`), 'SVC-404-001');
      expectSvcError(await ctx.as(tenant.test).delete(`/v1/webhooks/${id}`), 'SVC-404-001');
    });
  });

  describe('POST /v1/webhooks/{id}/rotate-secret', () => {
    it('returns a new secret, once', async () => {
      const created = (await register({})).body;
      const res = await ctx.as(tenant.test).post(`/v1/webhooks/${created.id}/rotate-secret`, {});
      expect(res.status).toBe(200);
      expect(res.body.secret).toMatch(/^whsec_/);
      expect(res.body.secret).not.toBe(created.secret);
      expect(res.body.id).toBe(created.id);
      expect((await ctx.as(tenant.test).get(`/v1/webhooks/${created.id}`)).body.secret).toBeUndefined();
    });
  });

  describe('scope', () => {
    it('another tenant, the other mode and malformed ids all answer 404', async () => {
      const { id } = (await register({})).body;
      for (const creds of [other.test, tenant.live]) {
        expectSvcError(await ctx.as(creds).get(`/v1/webhooks/${id}`), 'SVC-404-001');
        expectSvcError(await ctx.as(creds).patch(`/v1/webhooks/${id}`, { name: 'x' }), 'SVC-404-001');
        expectSvcError(await ctx.as(creds).delete(`/v1/webhooks/${id}`), 'SVC-404-001');
        expectSvcError(await ctx.as(creds).post(`/v1/webhooks/${id}/rotate-secret`, {}), 'SVC-404-001');
      }
      expectSvcError(await ctx.as(tenant.test).get('/v1/webhooks/we_doesnotexist000000000'), 'SVC-404-001');
      expectSvcError(await ctx.as(tenant.test).get('/v1/webhooks/evt_wrongkind'), 'SVC-404-001', {
        message: "No such webhook endpoint: 'evt_wrongkind'.",
      });
      expect((await ctx.as(tenant.test).get(`/v1/webhooks/${id}`)).status).toBe(200);
    });

    it('an investor-scoped key is refused on every webhook and event route (403 SVC-403-001)', async () => {
      const { id } = (await register({})).body;
      const key = ctx.as(investorKey);
      const responses = [
        await key.get('/v1/webhooks/event-types'),
        await key.post('/v1/webhooks', { name: 'x', url: receiverUrl, eventTypeNames: ['*'] }),
        await key.get('/v1/webhooks'),
        await key.get(`/v1/webhooks/${id}`),
        await key.patch(`/v1/webhooks/${id}`, { name: 'x' }),
        await key.delete(`/v1/webhooks/${id}`),
        await key.post(`/v1/webhooks/${id}/rotate-secret`),
        await key.post(`/v1/test_helpers/webhooks/${id}/test-event`),
        await key.get('/v1/events'),
        await key.get('/v1/events/evt_x'),
      ];
      for (const res of responses) {
        expectSvcError(res, 'SVC-403-001');
      }
      expect((await ctx.as(tenant.test).get(`/v1/webhooks/${id}`)).body.name).toBe('Orders');
    });
  });

  const receiverUrl = 'http://127.0.0.1:9/hooks';
  const register = (body: object, creds: TestCredentials = tenant.test) =>
    ctx.as(creds).post('/v1/webhooks', {
      name: 'Orders',
      url: receiverUrl,
      eventTypeNames: ['order.*'],
      ...body,
    });
});
