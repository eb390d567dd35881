import { basic, createTestContext, TestContext, TestTenant } from '../support/app';
import { itLocal } from '../support/app';
import { expectSvcError } from '../support/errors';
import { ProbeController } from '../support/probe.controller';

describe('Idempotency-Key', () => {
  let ctx: TestContext;
  let tenant: TestTenant;

  beforeAll(async () => {
    ctx = await createTestContext({ controllers: [ProbeController] });
    tenant = await ctx.createTenant();
  });

  afterAll(() => ctx.close());

  const post = (key: string, body: object, query = '') =>
    ctx
      .http()
      .post(`/v1/probe/things${query}`)
      .set('Authorization', basic(tenant.test))
      .set('Idempotency-Key', key)
      .send(body);

  itLocal('a repeat with the same body replays the stored status and body', async () => {
    const first = await post('key-replay-1', { name: 'first' });
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await post('key-replay-1', { name: 'first' });
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
  });

  itLocal('without the header each POST runs anew', async () => {
    const a = await ctx
      .http()
      .post('/v1/probe/things')
      .set('Authorization', basic(tenant.test))
      .send({ name: 'x' });
    const b = await ctx
      .http()
      .post('/v1/probe/things')
      .set('Authorization', basic(tenant.test))
      .send({ name: 'x' });
    expect(a.body.id).not.toBe(b.body.id);
  });

  itLocal('the same key with another body answers 409 SVC-409-002', async () => {
    await post('key-mismatch-1', { name: 'one' });
    expectSvcError(await post('key-mismatch-1', { name: 'two' }), 'SVC-409-002', {
      param: 'Idempotency-Key',
    });
  });

  itLocal(
    'a concurrent repeat while the first runs answers 409 SVC-409-003, and exactly one runs',
    async () => {
      const results = await Promise.all([
        post('key-concurrent-1', { name: 'slow' }, '?delay_ms=600'),
        new Promise((r) => setTimeout(r, 150)).then(() =>
          post('key-concurrent-1', { name: 'slow' }, '?delay_ms=600'),
        ),
      ]);
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).toEqual([201, 409]);
      expectSvcError(
        results.find((r) => r.status === 409)!,
        'SVC-409-003',
        { param: 'Idempotency-Key' },
      );
      const replay = await post('key-concurrent-1', { name: 'slow' }, '?delay_ms=600');
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.body.id).toBe(results.find((r) => r.status === 201)!.body.id);
    },
  );

  itLocal('many simultaneous repeats: one runs, the rest are refused or replayed', async () => {
    const results = await Promise.all(
      Array.from({ length: 8 }, () => post('key-burst-1', { name: 'burst' }, '?delay_ms=300')),
    );
    const created = results.filter((r) => r.status === 201 && r.headers['idempotent-replayed'] !== 'true');
    expect(created).toHaveLength(1);
    for (const r of results) {
      expect([201, 409]).toContain(r.status);
    }
  });

  itLocal('a request that fails validation stores nothing, so the key can be reused', async () => {
    expectSvcError(await post('key-invalid-1', { amount: '1' }), 'SVC-400-002', { param: 'name' });
    const ok = await post('key-invalid-1', { name: 'fixed' });
    expect(ok.status).toBe(201);
    expect(ok.headers['idempotent-replayed']).toBeUndefined();
  });

  itLocal('keys are scoped per tenant and mode', async () => {
    const other = await ctx.createTenant();
    const mine = await post('key-shared-1', { name: 'mine' });
    const theirs = await ctx
      .http()
      .post('/v1/probe/things')
      .set('Authorization', basic(other.test))
      .set('Idempotency-Key', 'key-shared-1')
      .send({ name: 'theirs' });
    expect(theirs.status).toBe(201);
    expect(theirs.body.id).not.toBe(mine.body.id);
    const live = await ctx
      .http()
      .post('/v1/probe/things')
      .set('Authorization', basic(tenant.live))
      .set('Idempotency-Key', 'key-shared-1')
      .send({ name: 'live' });
    expect(live.status).toBe(201);
    expect(live.body.livemode).toBe(true);
  });

  itLocal('a key over 255 characters is refused naming the header', async () => {
    expectSvcError(await post('k'.repeat(256), { name: 'x' }), 'SVC-400-001', { param: 'Idempotency-Key' });
  });
});
