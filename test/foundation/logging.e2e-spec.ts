import { PassThrough } from 'node:stream';
import { setLogDestination } from 'src/core/logging/app-logger';
import { basic, itLocal, useTenant, useTestContext } from '../support/app';

describe('Structured request logs', () => {
  const lines: string[] = [];
  // Registered before the context's, so the app boots logging into the sink.
  beforeAll(() => {
    const sink = new PassThrough();
    sink.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
    setLogDestination(sink);
    process.env.LOG_LEVEL = 'info';
  });
  const ctx = useTestContext();
  const tenant = useTenant(ctx);
  afterAll(() => {
    setLogDestination(undefined);
    process.env.LOG_LEVEL = 'silent';
  });

  itLocal('one JSON line per request with its request id and tenant, and never a credential', async () => {
    const ok = await ctx
      .http()
      .get('/v1/webhooks/event-types')
      .set('Authorization', basic(tenant.test))
      .set('Idempotency-Key', 'idem-should-not-be-logged');
    const bad = await ctx
      .http()
      .get('/v1/webhooks/event-types')
      .set('Authorization', basic({ ...tenant.test, secret: 'sk_test_wrong_secret_value' }));
    await new Promise((r) => setTimeout(r, 200));
    const entries = lines.map((l) => JSON.parse(l) as Record<string, any>);
    const okLine = entries.find((e) => e.req?.id === ok.headers['request-id']);
    const badLine = entries.find((e) => e.req?.id === bad.headers['request-id']);
    expect(okLine).toMatchObject({
      req: { method: 'GET', url: '/v1/webhooks/event-types' },
      res: { status: 200 },
      tenant_id: tenant.tenantId,
      livemode: false,
    });
    expect(badLine).toMatchObject({ res: { status: 401 } });
    const all = lines.join('\n');
    const encoded = Buffer.from(`${tenant.test.publicKey}:${tenant.test.secret}`).toString('base64');
    for (const secret of [
      tenant.test.secret,
      encoded,
      'sk_test_wrong_secret_value',
      'Basic ',
      'idem-should-not-be-logged',
    ]) {
      expect(all).not.toContain(secret);
    }
  });
});
