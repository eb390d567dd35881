import { basic, itLocal, TestTenant, useTenant, useTestContext } from '../support/app';
import { expectSvcError } from '../support/errors';

describe('Rate limit per API key', () => {
  beforeAll(() => {
    // A small limit for this file's own app: bursts of 5, refilled at 1 request per second.
    process.env.RATE_LIMIT_BURST = '5';
    process.env.RATE_LIMIT_PER_SECOND = '1';
    process.env.AUTH_FAILURES_PER_ADDRESS_PER_MINUTE = '40';
  });
  const ctx = useTestContext();
  const tenant = useTenant(ctx);
  afterAll(() => {
    delete process.env.RATE_LIMIT_BURST;
    delete process.env.RATE_LIMIT_PER_SECOND;
    delete process.env.AUTH_FAILURES_PER_ADDRESS_PER_MINUTE;
  });

  itLocal('answers 429 SVC-429-001 with Retry-After once the key is over its limit', async () => {
    const first = await call(tenant.test);
    expect(first.status).toBe(200);
    expect(first.headers['ratelimit-limit']).toBe('5');
    expect(first.headers['ratelimit-remaining']).toBe('4');
    expect(Number(first.headers['ratelimit-reset'])).toBeGreaterThan(0);
    // The bucket refills at 1 request a second while these run (slowly on a busy machine): of
    // 9 more sent at once, at most 4 + the seconds elapsed pass, and the rest answer 429.
    const started = Date.now();
    const more = await Promise.all(Array.from({ length: 9 }, () => call(tenant.test)));
    const elapsedSeconds = (Date.now() - started) / 1000;
    const passed = more.filter((r) => r.status === 200).length;
    expect(passed).toBeLessThanOrEqual(4 + Math.floor(elapsedSeconds) + 1);
    const limited = more.filter((r) => r.status !== 200);
    expect(limited.length).toBeGreaterThan(0);
    limited.forEach((r) => {
      expectSvcError(r, 'SVC-429-001');
      expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    });
    // Another key of the same tenant has its own budget.
    expect((await call(tenant.live)).status).toBe(200);
  });

  itLocal('holds the burst across what would be a window edge', async () => {
    // A fixed 5-second window (burst 5 / 1 per second) lets 5 requests through just before its
    // edge and 5 more just after it. A bucket lets through at most burst + rate × elapsed.
    const fresh = await ctx.createTenant();
    const edge = Math.ceil(Date.now() / 5000) * 5000 + (Date.now() % 5000 > 4300 ? 5000 : 0);
    await sleep(edge - 350 - Date.now());
    const started = Date.now();
    const before = await Promise.all(Array.from({ length: 5 }, () => call(fresh.test)));
    await sleep(Math.max(0, edge + 50 - Date.now()));
    const after = await Promise.all(Array.from({ length: 5 }, () => call(fresh.test)));
    const elapsedSeconds = (Date.now() - started) / 1000;
    const passed = [...before, ...after].filter((r) => r.status === 200).length;
    expect(before.every((r) => r.status === 200)).toBe(true);
    expect(passed).toBeLessThanOrEqual(5 + Math.floor(elapsedSeconds * 1));
    expect(passed).toBeLessThan(10);
    after.filter((r) => r.status !== 200).forEach((r) => expectSvcError(r, 'SVC-429-001'));
  });

  itLocal('refills at the sustained rate', async () => {
    const fresh = await ctx.createTenant();
    await Promise.all(Array.from({ length: 5 }, () => call(fresh.test)));
    expectSvcError(await call(fresh.test), 'SVC-429-001');
    await sleep(1100);
    expect((await call(fresh.test)).status).toBe(200);
    // Right after, three at once: one more token needs another second, three need three.
    const after = await Promise.all(Array.from({ length: 3 }, () => call(fresh.test)));
    expect(after.some((r) => r.status === 429)).toBe(true);
  });

  describe('failed authentication', () => {
    let victim: TestTenant;

    beforeAll(async () => {
      victim = await ctx.createTenant();
    });

    const callWith = (authorization: string) =>
      ctx.http().get('/v1/webhooks/event-types').set('Authorization', authorization);
    const wrongSecret = (publicKey: string) => basic({ id: '', publicKey, secret: 'sk_wrong_guess' });

    itLocal(
      'answers 429 past 20 wrong secrets a minute for one public key, never to the right secret',
      async () => {
        for (let i = 0; i < 20; i++) {
          expectSvcError(await callWith(wrongSecret(victim.test.publicKey)), 'SVC-401-001');
        }
        // 5 more at once: the bucket refills at 20 a minute, so at most a few pass while the
        // first 20 ran on a busy machine; the others answer 429 with Retry-After.
        const more = await Promise.all(
          Array.from({ length: 5 }, () => callWith(wrongSecret(victim.test.publicKey))),
        );
        const limited = more.filter((r) => r.status === 429);
        expect(limited.length).toBeGreaterThan(0);
        more.filter((r) => r.status !== 429).forEach((r) => expectSvcError(r, 'SVC-401-001'));
        expectSvcError(limited[0], 'SVC-429-001');
        expect(Number(limited[0].headers['retry-after'])).toBeGreaterThanOrEqual(1);
        expect(Number(limited[0].headers['retry-after'])).toBeLessThanOrEqual(60);
        // The partner holding the right secret is not locked out.
        expect((await callWith(basic(victim.test))).status).toBe(200);
        // Another public key has its own failure budget.
        expectSvcError(await callWith(wrongSecret(victim.live.publicKey)), 'SVC-401-001');
      },
    );

    itLocal('answers 429 once one address is past its failures a minute, whatever the keys', async () => {
      // 26 failures so far from this address (above); the address allows 40 a minute, refilled
      // evenly, so the next 14 answer 401 however slowly they run.
      for (let i = 0; i < 14; i++) {
        expectSvcError(await callWith(wrongSecret(`pk_test_unknown${i}`)), 'SVC-401-001');
      }
      // Then, sent at once, unknown keys and a bad Bearer token alike are refused with 429.
      const more = await Promise.all([
        ...Array.from({ length: 5 }, (_, i) => callWith(wrongSecret(`pk_test_other${i}`))),
        callWith('Bearer not-a-token'),
      ]);
      const limited = more.filter((r) => r.status === 429);
      expect(limited.length).toBeGreaterThan(0);
      limited.forEach((r) => expectSvcError(r, 'SVC-429-001'));
      // Correct credentials from the same address still pass.
      expect((await callWith(basic(victim.test))).status).toBe(200);
      expect((await callWith(basic(victim.live))).status).toBe(200);
    });
  });

  const call = (creds: TestTenant['test']) =>
    ctx.http().get('/v1/webhooks/event-types').set('Authorization', basic(creds));
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
