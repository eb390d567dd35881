import { validateEnvironment } from 'src/core/config/environment';
import { newId } from 'src/core/ids/ids';
import { WebhookSecrets } from 'src/modules/webhooks/webhook-secrets';
import { basic, isRemote, itLocal, useTenant, useTestContext } from '../support/app';
import { madeBeforeAll } from '../support/made-before-all';
import { serverAppEnv } from '../support/remote';
import { expectSvcError } from '../support/errors';
import { Receiver } from './support/receiver';
import { attemptsOf, dropQueueKeys, emit, eventually } from './support/webhooks';

// A production deployment: https only, public addresses only — for test keys too. Against a
// deployed sandbox the same rules hold for live keys, so the cases run with the live key there.
configureAsProduction();

describe('Webhook urls in production (SSRF)', () => {
  const ctx = useTestContext();
  const tenant = useTenant(ctx);
  const receiver = madeBeforeAll('The receiver', () => new Receiver().start());
  afterAll(async () => {
    await receiver.stop();
    await ctx.close();
    await dropQueueKeys();
  });

  it('production needs WEBHOOK_SECRET_KEY to start', () => {
    expect(() => validateEnvironment({ APP_ENV: 'production' })).toThrow(
      /WEBHOOK_SECRET_KEY: must be set in production/,
    );
    expect(() => validateEnvironment({ APP_ENV: 'production', WEBHOOK_SECRET_KEY: 'short' })).toThrow(
      /WEBHOOK_SECRET_KEY/,
    );
    expect(validateEnvironment({}).WEBHOOK_SECRET_KEY).toBeUndefined();
    expect(validateEnvironment({}).WEBHOOK_TIMEOUT_MS).toBe(30_000);
  });

  it('http is refused, even for test keys (live keys on a sandbox)', async () => {
    expectSvcError(await register(`http://8.8.8.8/hooks`), 'SVC-400-001', {
      param: 'url',
      message: 'url must use https in production and with live keys.',
    });
  });

  it.each([
    'https://127.0.0.1/hooks',
    'https://127.1.2.3:8443/hooks',
    'https://localhost/hooks',
    'https://10.0.0.1/hooks',
    'https://172.16.5.4/hooks',
    'https://192.168.1.10/hooks',
    'https://169.254.169.254/latest/meta-data/',
    'https://100.64.0.1/hooks',
    'https://0.0.0.0/hooks',
    'https://[::1]/hooks',
    'https://[fe80::1]/hooks',
    'https://[fd00:ec2::254]/hooks',
    'https://[::ffff:10.0.0.1]/hooks',
  ])('%s is refused at registration (400 SVC-400-001 param url)', async (url) => {
    expectSvcError(await register(url), 'SVC-400-001', {
      param: 'url',
      message: /private, loopback or link-local/,
    });
  });

  it('an update to a private url is refused too', async () => {
    const created = await register('https://8.8.8.8/hooks');
    expect(created.status).toBe(201);
    const res = await ctx
      .http()
      .patch(`/v1/webhooks/${created.body.id}`)
      .set('Authorization', basic(strictKey()))
      .send({ url: 'https://10.1.2.3/hooks' });
    expectSvcError(res, 'SVC-400-001', { param: 'url' });
    // Public endpoints registered here get no event: nothing is sent off this machine.
    await ctx.http().delete(`/v1/webhooks/${created.body.id}`).set('Authorization', basic(strictKey()));
  });

  itLocal(
    'delivery checks again (DNS may have changed since registration): a private target is a failed attempt, never a request',
    async () => {
      // Endpoints stored as if their hosts had resolved to public addresses when registered.
      const secrets = ctx.app!.get(WebhookSecrets);
      const urls = [
        `https://localhost:${receiver.port}/hooks`,
        `https://127.0.0.1:${receiver.port}/hooks`,
        receiver.url,
      ];
      const ids: string[] = [];
      for (const url of urls) {
        const id = newId('webhookEndpoint');
        ids.push(id);
        await ctx.dataSource.query(
          `INSERT INTO "webhook_endpoints" ("id", "tenant_id", "livemode", "name", "url", "event_type_names", "secret_ciphertext")
         VALUES ($1, $2, false, 'stale', $3, '{order.*}', $4)`,
          [id, tenant.tenantId, url, secrets.seal('whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0')],
        );
      }
      const event = await emit(ctx, { tenantId: tenant.tenantId, event: 'order.filled' });
      const rows = await eventually(
        () => attemptsOf(ctx, event.id),
        (r) => r.length === 3,
      );
      const byEndpoint = Object.fromEntries(rows.map((r) => [r.endpoint_id, r]));
      expect(byEndpoint[ids[0]]).toMatchObject({
        succeeded: false,
        status_code: null,
        error: expect.stringMatching(
          /^refused: url host localhost resolves to a private, loopback or link-local address/,
        ),
      });
      expect(byEndpoint[ids[1]]).toMatchObject({
        succeeded: false,
        error: expect.stringMatching(
          /^refused: url must not point to a private, loopback or link-local address \(127\.0\.0\.1\)/,
        ),
      });
      expect(byEndpoint[ids[2]]).toMatchObject({
        succeeded: false,
        error: 'refused: url must use https in production and with live keys.',
      });
      for (const row of rows) {
        expect(row.next_attempt_at).not.toBeNull();
      }
      expect(receiver.requests).toEqual([]);
    },
  );

  // The key the strict rules apply to on this server.
  const strictKey = () => (strictForTestKeys ? tenant.test : tenant.live);

  const register = (url: string) =>
    ctx
      .http()
      .post('/v1/webhooks')
      .set('Authorization', basic(strictKey()))
      .send({ name: 'x', url, eventTypeNames: ['order.*'] });
});

/** True when the server applies the strict rules to test keys (a production deployment). */
const strictForTestKeys = !isRemote || serverAppEnv() === 'production';

/** In process, this file's app is configured as a production deployment (set before it boots). */
function configureAsProduction(): void {
  if (!isRemote) {
    process.env.APP_ENV = 'production';
    process.env.WEBHOOK_SECRET_KEY = 'production-test-key-0123456789abcdef';
    process.env.DATA_ENCRYPTION_KEY = 'production-data-key-0123456789abcdef';
  }
}
