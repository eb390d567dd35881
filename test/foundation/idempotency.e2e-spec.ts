import { basic, useTenant, useTestContext } from '../support/app';
import { expectSvcError } from '../support/errors';
import { createInvestor } from '../investors/fixtures';

describe('Idempotency-Key', () => {
  const ctx = useTestContext();
  const tenant = useTenant(ctx);

  it('a repeat with the same body replays the stored status and body', async () => {
    const first = await register('key-replay-1', endpoint('first'));
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await register('key-replay-1', endpoint('first'));
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
  });

  it('without the header each POST runs anew', async () => {
    const a = await register(undefined, endpoint('x'));
    const b = await register(undefined, endpoint('x'));
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.id).not.toBe(b.body.id);
  });

  it('the same key with another body answers 409 SVC-409-002', async () => {
    expect((await register('key-mismatch-1', endpoint('one'))).status).toBe(201);
    expectSvcError(await register('key-mismatch-1', endpoint('two')), 'SVC-409-002', {
      param: 'Idempotency-Key',
    });
  });

  /** Long enough to still run when a repeat arrives 50 ms later, even on a quiet machine (a few ms a day). */
  const MOVE_DAYS = 60;

  /**
   * A request that runs a while through the API alone: a months-long move of a test clock, which
   * runs every job that fell due (an interest accrual a day for the tenant's account, monthly
   * payouts) before it answers. `daysMoved` tells how often a move really ran.
   */
  async function slowRequest() {
    const own = await ctx.createTenant();
    const clock = () => ctx.http().post('/v1/test_helpers/clock').set('Authorization', basic(own.test));
    const start = '2049-03-01T15:00:00.000Z';
    // Frozen before the account opens: only the moves below run its daily jobs.
    expect((await clock().send({ frozen_time: start })).status).toBe(200);
    await createInvestor(ctx, own.test);
    return {
      send: (key: string) =>
        clock()
          .set('Idempotency-Key', key)
          .send({ advance_seconds: MOVE_DAYS * 86_400 }),
      daysMoved: async () => {
        const now = await ctx.http().get('/v1/test_helpers/clock').set('Authorization', basic(own.test));
        return (Date.parse(now.body.frozen_time) - Date.parse(start)) / 86_400_000;
      },
    };
  }

  it('a concurrent repeat while the first runs answers 409 SVC-409-003, and exactly one runs', async () => {
    const slow = await slowRequest();
    const results = await Promise.all([
      slow.send('key-concurrent-1'),
      new Promise((r) => setTimeout(r, 50)).then(() => slow.send('key-concurrent-1')),
    ]);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409]);
    expectSvcError(
      results.find((r) => r.status === 409)!,
      'SVC-409-003',
      { param: 'Idempotency-Key' },
    );
    const replay = await slow.send('key-concurrent-1');
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(results.find((r) => r.status === 200)!.body);
    expect(await slow.daysMoved()).toBe(MOVE_DAYS);
  });

  it('many simultaneous repeats of a slow request: one runs, the rest are refused or replayed', async () => {
    const slow = await slowRequest();
    const results = await Promise.all(Array.from({ length: 8 }, () => slow.send('key-burst-1')));
    const ran = results.filter((r) => r.status === 200 && r.headers['idempotent-replayed'] !== 'true');
    expect(ran).toHaveLength(1);
    for (const r of results) {
      expect([200, 409]).toContain(r.status);
    }
    expect(await slow.daysMoved()).toBe(MOVE_DAYS);
  });

  it('50 simultaneous repeats: one endpoint is made, every other answer is a 409 or the same replay', async () => {
    const results = await Promise.all(
      Array.from({ length: 50 }, () => register('key-burst-50', endpoint('burst'))),
    );
    const created = results.filter((r) => r.status === 201 && r.headers['idempotent-replayed'] !== 'true');
    expect(created).toHaveLength(1);
    for (const r of results) {
      expect([201, 409]).toContain(r.status);
      if (r.status === 201) {
        expect(r.body.id).toBe(created[0].body.id);
      }
    }
    const listed = await ctx.http().get('/v1/webhooks?limit=100').set('Authorization', basic(tenant.test));
    expect(listed.body.data.filter((e: { name: string }) => e.name === 'burst')).toHaveLength(1);
  });

  it('a request that fails validation stores nothing, so the key can be reused', async () => {
    expectSvcError(await register('key-invalid-1', endpoint()), 'SVC-400-002', { param: 'name' });
    const ok = await register('key-invalid-1', endpoint('fixed'));
    expect(ok.status).toBe(201);
    expect(ok.headers['idempotent-replayed']).toBeUndefined();
  });

  it('keys are scoped per tenant and mode', async () => {
    const other = await ctx.createTenant();
    const mine = await register('key-shared-1', endpoint('mine'));
    const theirs = await register('key-shared-1', endpoint('theirs'), other.test);
    expect(theirs.status).toBe(201);
    expect(theirs.body.id).not.toBe(mine.body.id);
    const live = await register('key-shared-1', endpoint('live'), tenant.live);
    expect(live.status).toBe(201);
    expect(live.body.livemode).toBe(true);
  });

  it('a key over 255 characters is refused naming the header', async () => {
    expectSvcError(await register('k'.repeat(256), endpoint('x')), 'SVC-400-001', {
      param: 'Idempotency-Key',
    });
  });

  /** A real route, so the cases run against a deployed sandbox too: registering a webhook endpoint. */
  const endpoint = (name?: string) => ({
    ...(name === undefined ? {} : { name }),
    url: 'https://8.8.8.8/hooks',
    eventTypeNames: ['order.*'],
  });
  const register = (key: string | undefined, body: object, creds = tenant.test) => {
    const req = ctx.http().post('/v1/webhooks').set('Authorization', basic(creds));
    return (key === undefined ? req : req.set('Idempotency-Key', key)).send(body);
  };
});
