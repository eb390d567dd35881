import { basic, itLocal, useTenant, useTestContext } from '../support/app';
import { expectSvcError } from '../support/errors';
import { createInvestor, investorBody } from '../investors/fixtures';
import { ProbeController } from '../support/probe.controller';
import { ERROR_CODES } from 'src/core/errors/error-catalog';
import { RoutePrefilter } from 'src/core/http/route-prefilter';

describe('Error envelope', () => {
  const ctx = useTestContext({ controllers: [ProbeController] });
  const tenant = useTenant(ctx);
  const get = (path: string) => ctx.http().get(path).set('Authorization', basic(tenant.test));
  const post = (path: string) => ctx.http().post(path).set('Authorization', basic(tenant.test));

  it('400-001 names the invalid query field', async () => {
    const res = await get('/v1/events?limit=500');
    expectSvcError(res, 'SVC-400-001', {
      param: 'limit',
      message: 'Invalid limit: must not be greater than 100.',
    });
  });

  it('400-001 names a nested body field by its path', async () => {
    const body = investorBody();
    body.contact.address.country = 'nigeria';
    expectSvcError(await post('/v1/investors').send(body), 'SVC-400-001', {
      param: 'contact.address.country',
    });
  });

  const endpoint = { url: 'https://8.8.8.8/hooks', eventTypeNames: ['order.*'] };

  it('400-001 names an unknown field', async () => {
    const res = await post('/v1/webhooks').send({ name: 'a', ...endpoint, colour: 'red' });
    expectSvcError(res, 'SVC-400-001', { param: 'colour', message: 'Unknown field colour.' });
  });

  it('400-002 names the missing field', async () => {
    const res = await post('/v1/webhooks').send(endpoint);
    expectSvcError(res, 'SVC-400-002', { param: 'name', message: 'Missing required field name.' });
  });

  it('400-003 for a malformed JSON body', async () => {
    const res = await post('/v1/webhooks/event-types')
      .set('Content-Type', 'application/json')
      .send('{"name": ');
    expectSvcError(res, 'SVC-400-003');
  });

  it('413-001 for a body over 1 MB', async () => {
    const res = await post('/v1/webhooks/event-types')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ blob: 'x'.repeat(1_100_000) }));
    expectSvcError(res, 'SVC-413-001');
  });

  it('404-001 for an unknown route, under both prefixes', async () => {
    expectSvcError(await get('/v1/no-such-thing'), 'SVC-404-001', {
      message: 'Unrecognized request URL (GET /v1/no-such-thing).',
    });
    expectSvcError(await get('/legacy/v1/no-such-thing'), 'SVC-404-001');
  });

  itLocal('routes are looked up behind their literal segments, and a near miss is still a 404', async () => {
    // Every plain route (all of the service's) compares literal segments before its expression
    // (src/core/http/route-prefilter.ts); the route table is the document's paths and the probes.
    expect(ctx.app!.get(RoutePrefilter).prefiltered).toBeGreaterThanOrEqual(100);
    const investor = await createInvestor(ctx, tenant.test);
    expect((await get(`/v1/investors/${investor.id}/orders`)).status).toBe(200);
    expectSvcError(await get(`/v1/investors/${investor.id}/orders/x/y`), 'SVC-404-001');
    expectSvcError(await get(`/v1/investor/${investor.id}/orders`), 'SVC-404-001');
  });

  it('409-001 for an illegal state change', async () => {
    const investor = await createInvestor(ctx, tenant.test);
    const close = () => post(`/v1/accounts/${investor.account_id}/actions/close`);
    expect((await close()).status).toBe(200);
    expectSvcError(await close(), 'SVC-409-001');
  });

  it('422-001 for a business-rule refusal, naming the field', async () => {
    expectSvcError(
      await post('/v1/investors').send(investorBody({ trading_type: 'margin' })),
      'SVC-422-001',
      {
        param: 'trading_type',
      },
    );
  });

  itLocal('500-001 leaks nothing internal', async () => {
    const res = await get('/v1/probe/fail?kind=crash');
    expectSvcError(res, 'SVC-500-001', { message: 'An internal error occurred.' });
    expect(JSON.stringify(res.body)).not.toMatch(/secret_table|unique constraint|\.js|at /);
  });

  itLocal('503-001 when a dependency is down', async () => {
    expectSvcError(await get('/v1/probe/fail?kind=unavailable'), 'SVC-503-001');
  });

  it('the error page lists every code with an anchor each doc_url lands on', async () => {
    const res = await ctx.http().get('/docs/errors');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    for (const code of ERROR_CODES) {
      expect(res.text).toContain(`id="${code}"`);
    }
    expect(res.text).toContain('id="PRODUCT_NOT_ENABLED"');
  });

  it('every response carries a Request-Id, success or not', async () => {
    const ok = await get('/v1/webhooks/event-types');
    const ko = await ctx.http().get('/v1/webhooks/event-types');
    expect(ok.headers['request-id']).toMatch(/^req_[A-Za-z0-9_-]{22}$/);
    expect(ko.headers['request-id']).toMatch(/^req_[A-Za-z0-9_-]{22}$/);
    expect(ok.headers['request-id']).not.toBe(ko.headers['request-id']);
  });

  it('health endpoints are unversioned and unauthenticated', async () => {
    expect((await ctx.http().get('/health/live')).body).toEqual({ status: 'ok' });
    const ready = await ctx.http().get('/health/ready');
    expect(ready.status).toBe(200);
    const { database_replicas: replicas, ...details } = ready.body.details;
    expect(details).toEqual({
      postgresql: { status: 'up' },
      redis: { status: 'up' },
      auth_failure_limit: { status: 'up', store: 'redis' },
    });
    // Shown only where read replicas are configured (DATABASE_REPLICA_URLS), and never down.
    expect(replicas === undefined || replicas.status === 'up').toBe(true);
  });
});
