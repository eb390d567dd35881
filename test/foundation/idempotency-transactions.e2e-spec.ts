import { IdempotencyService } from 'src/core/idempotency/idempotency.service';
import { basic, itLocal, useTenant, useTestContext } from '../support/app';
import { expectSvcError } from '../support/errors';
import { ProbeController } from '../support/probe.controller';

// Short leases so a dead reservation frees up within the test (renewed every 300 ms).
process.env.IDEMPOTENCY_LEASE_MS = '900';

describe('Idempotent responses stored in the effect’s transaction', () => {
  const ctx = useTestContext({ controllers: [ProbeController] });
  const tenant = useTenant(ctx);

  itLocal('the committed effect and its stored response are one: the repeat replays it', async () => {
    const first = await post('tx-1', { name: 'tx-one' });
    expect(first.status).toBe(201);
    expect(await keyRow('tx-1')).toEqual({
      state: 'completed',
      response_status: 201,
      response_body: first.body,
      owner_token: null,
    });
    const again = await post('tx-1', { name: 'tx-one' });
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await effectsNamed('tx-one')).toBe(1);
  });

  itLocal('a failure after the effect rolls both back and frees the key', async () => {
    const failed = await post('tx-2', { name: 'tx-two' }, '?fail=after_effect');
    expectSvcError(failed, 'SVC-422-001');
    expect(await keyRow('tx-2')).toBeUndefined();
    expect(await effectsNamed('tx-two')).toBe(0);
    const retried = await post('tx-2', { name: 'tx-two' });
    expect(retried.status).toBe(201);
    expect(await effectsNamed('tx-two')).toBe(1);
  });

  itLocal('a reservation whose process died is free again once its lease runs out', async () => {
    // What a process killed mid-request leaves behind: an in-flight row nobody renews.
    await ctx.dataSource.query(
      `INSERT INTO idempotency_keys (tenant_id, livemode, key, request_hash, state, owner_token, lease_expires_at)
       VALUES ($1, false, 'tx-3', 'hash-of-the-lost-request', 'in_flight', 'dead-process', now() + interval '600 milliseconds')`,
      [tenant.tenantId],
    );
    expectSvcError(await post('tx-3', { name: 'tx-three' }), 'SVC-409-002', { param: 'Idempotency-Key' });
    await new Promise((r) => setTimeout(r, 700));
    const after = await post('tx-3', { name: 'tx-three' });
    expect(after.status).toBe(201);
    expect(await effectsNamed('tx-three')).toBe(1);
  });

  itLocal('a running request keeps renewing its lease: a repeat meanwhile is still 409-003', async () => {
    // supertest sends on then(): start the request now.
    const slow = post('tx-4', { name: 'tx-four' }, '?delay_ms=2000').then((r) => r);
    await new Promise((r) => setTimeout(r, 1500)); // past the 900 ms lease without renewal
    expectSvcError(await post('tx-4', { name: 'tx-four' }, '?delay_ms=2000'), 'SVC-409-003', {
      param: 'Idempotency-Key',
    });
    expect((await slow).status).toBe(201);
    expect(await effectsNamed('tx-four')).toBe(1);
  });

  itLocal('a request that lost its reservation commits nothing', async () => {
    const slow = post('tx-5', { name: 'tx-five' }, '?delay_ms=800').then((r) => r);
    await new Promise((r) => setTimeout(r, 300));
    // Another request took the key over (as after a stall longer than the lease).
    const [, moved] = await ctx.dataSource.query(
      `UPDATE idempotency_keys SET owner_token = 'someone-else' WHERE tenant_id = $1 AND key = 'tx-5'`,
      [tenant.tenantId],
    );
    expect(moved).toBe(1);
    expectSvcError(await slow, 'SVC-409-003', { param: 'Idempotency-Key' });
    expect(await effectsNamed('tx-five')).toBe(0);
  });

  const post = (key: string, body: object, query = '') =>
    ctx
      .http()
      .post(`/v1/probe/effects${query}`)
      .set('Authorization', basic(tenant.test))
      .set('Idempotency-Key', key)
      .send(body);

  const keyRow = async (key: string) => {
    const row = (
      await ctx.dataSource.query(
        `SELECT state, response_status, response_body_sealed, owner_token FROM idempotency_keys
          WHERE tenant_id = $1 AND key = $2`,
        [tenant.tenantId, key],
      )
    )[0] as
      | {
          state: string;
          response_status: number;
          response_body_sealed: string | null;
          owner_token: string | null;
        }
      | undefined;
    if (!row) {
      return undefined;
    }
    const { response_body_sealed: sealed, ...rest } = row;
    return { ...rest, response_body: ctx.app!.get(IdempotencyService).unseal(sealed) };
  };

  const effectsNamed = async (name: string): Promise<number> =>
    Number(
      (
        await ctx.dataSource.query(
          `SELECT count(*) AS n FROM events WHERE tenant_id = $1 AND data->>'probe' = $2`,
          [tenant.tenantId, name],
        )
      )[0].n,
    );
});
