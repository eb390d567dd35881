import { PassThrough } from 'node:stream';
import { setLogDestination } from 'src/core/logging/app-logger';
import { basic, isRemote, itLocal, useTenant, useTestContext } from '../support/app';
import { expectSvcError } from '../support/errors';
import { createInvestor, investorBody } from '../investors/fixtures';

describe('Logs keep no personal data or secrets', () => {
  const lines: string[] = [];
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

  itLocal(
    'a database error logs the query text, SQLSTATE and constraint, and no parameter value',
    async () => {
      await refuseRows('investment_accounts', `email_address NOT LIKE '%privacy-probe%'`);
      const body = investorBody({
        identity: { tax_id: TAX_ID, last_name: LAST_NAME },
        contact: {
          email_address: EMAIL,
          phone_number: PHONE,
          address: { street: [STREET], city: 'San Mateo', state: 'CA', postal_code: '94401', country: 'US' },
        },
      });
      const failed = await ctx.as(tenant.test).post('/v1/investors', body, 'privacy-investor');
      expectSvcError(failed, 'SVC-500-001');
      await refuseRows('api_keys', `name <> 'privacy-probe'`);
      const investor = await createInvestor(ctx, tenant.test);
      expectSvcError(
        await ctx.as(tenant.test).post(`/v1/investors/${investor.id}/api-keys`, { name: 'privacy-probe' }),
        'SVC-500-001',
      );
      await refuseRows('webhook_endpoints', `name <> 'privacy-probe'`);
      expectSvcError(
        await ctx.as(tenant.test).post('/v1/webhooks', {
          name: 'privacy-probe',
          url: 'http://127.0.0.1:3299/hooks',
          eventTypeNames: ['order.*'],
        }),
        'SVC-500-001',
      );
      await settle();

      const queryErrors = logged().filter((e) => e.queryError);
      expect(
        queryErrors.map((e) => [e.level, e.context, e.queryError.code, e.queryError.constraint]),
      ).toEqual([
        [40, 'Database', '23514', 'investment_accounts_privacy_probe'],
        [40, 'Database', '23514', 'api_keys_privacy_probe'],
        [40, 'Database', '23514', 'webhook_endpoints_privacy_probe'],
      ]);
      expect(queryErrors[0].queryError.query).toMatch(/^INSERT INTO "investment_accounts"\(.*VALUES \(\$1/);
      const failures = logged().filter((e) => e.requestId === failed.headers['request-id']);
      expect(failures).toHaveLength(1);
      expect(failures[0]).toMatchObject({
        level: 50,
        context: 'Errors',
        err: { type: 'QueryFailedError', code: '23514', constraint: 'investment_accounts_privacy_probe' },
      });

      const all = lines.join('\n');
      for (const value of [
        TAX_ID,
        TAX_ID.replace(/-/g, ''),
        EMAIL,
        PHONE,
        STREET,
        LAST_NAME,
        'privacy-probe@',
      ]) {
        expect(all).not.toContain(value);
      }
      expect(all).not.toMatch(SEALED);
      expect(all).not.toMatch(SHA256_HEX);
      expect(all).not.toMatch(/"parameters"|Failing row contains|"detail"/);

      // Nothing committed, so the key is free: once the database accepts the row, the retry creates it.
      await acceptRows('investment_accounts');
      await acceptRows('api_keys');
      await acceptRows('webhook_endpoints');
      const retried = await ctx.as(tenant.test).post('/v1/investors', body, 'privacy-investor');
      expect(retried.status).toBe(201);
      expect(retried.body.identity.tax_id).toBe('*****4321');
    },
  );

  it('request lines keep query parameter names, never their values', async () => {
    const res = await ctx
      .http()
      .get(`/v1/investors?email=${encodeURIComponent(EMAIL)}`)
      .set('Authorization', basic(tenant.test));
    expect(res.status).toBe(200);
    // The request log the API answers records the same request line: the name, not the value.
    const requestId = res.headers['request-id'];
    const deadline = Date.now() + 10_000;
    let recorded = await ctx
      .http()
      .get(`/v1/request-logs/${requestId}`)
      .set('Authorization', basic(tenant.test));
    while (recorded.status === 404 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      recorded = await ctx
        .http()
        .get(`/v1/request-logs/${requestId}`)
        .set('Authorization', basic(tenant.test));
    }
    expect(recorded.status).toBe(200);
    expect(recorded.body.query).toEqual({ email: '[redacted]' });
    expect(JSON.stringify(recorded.body)).not.toContain('privacy-probe');
    if (!isRemote) {
      await settle();
      const line = logged().find((e) => e.req?.id === requestId);
      expect(line?.req.url).toBe('/v1/investors?email=[redacted]');
      expect(lines.join('\n')).not.toContain('privacy-probe%40');
    }
  });

  /** Makes the database refuse rows carrying a marker, as a real constraint failure would. */
  const refuseRows = async (table: string, condition: string) =>
    ctx.dataSource.query(
      `ALTER TABLE "${table}" ADD CONSTRAINT "${table}_privacy_probe" CHECK (${condition})`,
    );
  const acceptRows = async (table: string) =>
    ctx.dataSource.query(`ALTER TABLE "${table}" DROP CONSTRAINT "${table}_privacy_probe"`);

  const settle = () => new Promise((r) => setTimeout(r, 200));
  const logged = () => lines.map((l) => JSON.parse(l) as Record<string, any>);
});

/** Values the failing requests carry: none may reach a log line. */
const TAX_ID = '287-65-4321';
const EMAIL = 'grace.privacy-probe@example.com';
const PHONE = '+14155550199';
const STREET = '77 Privacy Probe Lane';
const LAST_NAME = 'Hopperprobe';
/** The sealed form of any stored secret or tax id (SecretBox), and a SHA-256 hex (key hashes). */
const SEALED = /v1:[A-Za-z0-9_-]{8}:/;
const SHA256_HEX = /[0-9a-f]{64}/;
