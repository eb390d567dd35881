import { Webhook } from 'standardwebhooks';
import request from 'supertest';
import { basic, isRemote, itProduction, useTenant, useTestContext } from '../support/app';
import { remoteBaseUrl } from '../support/remote';
import { expectSvcError } from '../support/errors';
import { createInvestor, investorKey } from '../investors/fixtures';

/** Issue 9: webhook sinks, receivers hosted by the sandbox, readable through the API (test mode). */
describe('Webhook sinks', () => {
  const ctx = useTestContext();
  const tenant = useTenant(ctx);

  it('records signed deliveries: headers, raw body and time; the signature verifies', async () => {
    const sink = await post('/v1/test_helpers/webhook-sinks');
    expect(sink.status).toBe(201);
    expect(sink.body).toEqual({
      id: expect.stringMatching(/^whs_/),
      object: 'webhook_sink',
      url: expect.stringMatching(new RegExp(`/v1/webhook-sinks/${sink.body.id}$`)),
      status_code: 200,
      livemode: false,
      created: expect.any(Number),
    });
    // Envelope `created` is Unix seconds (spec, Resource envelope), here of a sink made just now.
    expect(Number.isInteger(sink.body.created)).toBe(true);
    expect(Math.abs(sink.body.created - Date.now() / 1000)).toBeLessThan(300);
    expect(sink.body.url.startsWith(process.env.PUBLIC_URL ?? 'http://localhost:3000')).toBe(true);
    const hook = await post('/v1/webhooks', { name: 'sink', url: sink.body.url, eventTypeNames: ['kyc.*'] });
    expect(hook.status).toBe(201);
    const event = await post(`/v1/test_helpers/webhooks/${hook.body.id}/test-event`);
    expect(event.status).toBe(200);
    const [received] = await requestsOf(sink.body.id, 1);
    expect(received).toMatchObject({ sequence: expect.any(Number), method: 'POST' });
    expect(received.headers['webhook-id']).toBe(event.body.id);
    expect(received.headers['content-type']).toBe('application/json');
    expect(JSON.parse(received.body)).toMatchObject({ id: event.body.id, event: 'webhook.test' });
    expect(new Webhook(hook.body.secret).verify(received.body, received.headers)).toBeTruthy();
    expect(Date.parse(received.received_at)).not.toBeNaN();
    const later = await get(
      `/v1/test_helpers/webhook-sinks/${sink.body.id}/requests?after=${received.sequence}`,
    );
    expect(later.body.data).toEqual([]);
  });

  it('answers with the status it was made with, so failures can be tried', async () => {
    const sink = await post('/v1/test_helpers/webhook-sinks', { status_code: 503 });
    expect(sink.body.status_code).toBe(503);
    const path = new URL(sink.body.url).pathname;
    // The sink's own address is an opaque receiver url, outside the partner API document.
    const direct = await request(isRemote ? remoteBaseUrl() : ctx.app!.getHttpServer())
      .post(path)
      .set('content-type', 'application/json')
      .send('{"hello":"sink"}');
    expect(direct.status).toBe(503);
    const [received] = await requestsOf(sink.body.id, 1);
    expect(received.body).toBe('{"hello":"sink"}');
  });

  it('is test mode and tenant-level: live keys get 404, investor keys 403, other tenants 404', async () => {
    const sink = await post('/v1/test_helpers/webhook-sinks');
    expectSvcError(
      await ctx
        .http()
        .post('/v1/test_helpers/webhook-sinks')
        .set('Authorization', basic(tenant.live))
        .send({}),
      'SVC-404-001',
    );
    const investor = await createInvestor(ctx, tenant.test);
    const key = await investorKey(ctx, tenant.test, investor.id);
    expectSvcError(
      await ctx.http().post('/v1/test_helpers/webhook-sinks').set('Authorization', basic(key)).send({}),
      'SVC-403-001',
    );
    const other = await ctx.createTenant();
    expectSvcError(
      await ctx
        .http()
        .get(`/v1/test_helpers/webhook-sinks/${sink.body.id}/requests`)
        .set('Authorization', basic(other.test)),
      'SVC-404-001',
    );
    expectSvcError(await post('/v1/test_helpers/webhook-sinks', { status_code: 99 }), 'SVC-400-001', {
      param: 'status_code',
    });
  });

  itProduction('a sink passes the production webhook URL rules (the service owns it)', async () => {
    const sink = await post('/v1/test_helpers/webhook-sinks');
    const hook = await post('/v1/webhooks', {
      name: 'prod sink',
      url: sink.body.url,
      eventTypeNames: ['kyc.*'],
    });
    expect(hook.status).toBe(201);
  });

  const post = (path: string, body: object = {}) =>
    ctx.http().post(path).set('Authorization', basic(tenant.test)).send(body);
  const get = (path: string) => ctx.http().get(path).set('Authorization', basic(tenant.test));

  async function requestsOf(sinkId: string, count: number): Promise<SinkRequest[]> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const res = await get(`/v1/test_helpers/webhook-sinks/${sinkId}/requests`);
      expect(res.status).toBe(200);
      if (res.body.data.length >= count || Date.now() > deadline) {
        return res.body.data as SinkRequest[];
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
});

interface SinkRequest {
  sequence: number;
  method: string;
  headers: Record<string, string>;
  body: string;
  received_at: string;
}
