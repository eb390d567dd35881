import { basic, createTestContext, TestContext, TestTenant } from '../support/app';
import { itLocal } from '../support/app';
import { expectSvcError } from '../support/errors';

describe('Rate limit per API key', () => {
  let ctx: TestContext;
  let tenant: TestTenant;

  beforeAll(async () => {
    // A small limit for this file's own app: 5 requests per 5-second window.
    process.env.RATE_LIMIT_BURST = '5';
    process.env.RATE_LIMIT_PER_SECOND = '1';
    ctx = await createTestContext();
    tenant = await ctx.createTenant();
  });

  afterAll(async () => {
    delete process.env.RATE_LIMIT_BURST;
    delete process.env.RATE_LIMIT_PER_SECOND;
    await ctx.close();
  });

  itLocal('answers 429 SVC-429-001 with Retry-After once the key is over its limit', async () => {
    const call = (creds = tenant.test) =>
      ctx.http().get('/v1/webhooks/event-types').set('Authorization', basic(creds));
    const first = await call();
    expect(first.status).toBe(200);
    expect(first.headers['ratelimit-limit']).toBe('5');
    expect(first.headers['ratelimit-remaining']).toBe('4');
    expect(Number(first.headers['ratelimit-reset'])).toBeGreaterThan(0);
    for (let i = 0; i < 4; i++) {
      expect((await call()).status).toBe(200);
    }
    const limited = await call();
    expectSvcError(limited, 'SVC-429-001');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Another key of the same tenant has its own budget.
    expect((await call(tenant.live)).status).toBe(200);
  });
});
