import { basic, itSandbox, useTenant, useTestContext } from '../support/app';
import { expectSvcError } from '../support/errors';
import { adminToken } from '../support/remote';
import { investorKey } from '../investors/fixtures';

/** The hostile inputs that once answered 500 or froze the service answer a 4xx naming the field. */
describe('Hostile input: bounded validation, nulls, huge offsets, unique races', () => {
  const ctx = useTestContext();
  const tenant = useTenant(ctx, { products: ['cash_management'] });
  let investor: { id: string; account_id: string };
  beforeAll(async () => {
    const created = await ctx.as(tenant.test).post('/v1/investors', {
      ...(await import('../investors/fixtures')).investorBody(),
    });
    investor = { id: created.body.id as string, account_id: created.body.account_id as string };
  });

  describe('wide objects and arrays are refused while parsing, naming the first field past the limit', () => {
    it('50,000 keys (0.73 MB) on order placement with an investor key', async () => {
      const key = await investorKey(ctx, tenant.test, investor.id);
      const res = await ctx.as(key).post(orders(), manyKeys(50_000));
      expectSvcError(res, 'SVC-400-001', { param: 'k100', message: /at most 100 keys/ });
    });

    it('an array of 60,000 items, named by its field and the first item too many', async () => {
      const res = await client().post(orders(), {
        ...order,
        metadata: Array.from({ length: 60_000 }, () => 1),
      });
      expectSvcError(res, 'SVC-400-001', { param: 'metadata[1000]', message: /at most 1000 items/ });
    });

    it('100 keys in an object still reach validation', async () => {
      const res = await client().post(orders(), { ...order, metadata: manyKeys(100) });
      expectSvcError(res, 'SVC-400-001', { param: 'metadata' });
    });

    it('an unknown field deep in a nested object is refused before any per-field rule', async () => {
      const res = await client().post('/v1/investors', { contact: { address: { zz: 1 } } });
      expectSvcError(res, 'SVC-400-001', { param: 'contact.address.zz', message: /Unknown field/ });
    });

    it.each([
      ['an array of 999 objects of 99 keys', Array.from({ length: 999 }, () => manyKeys(99))],
      ['an empty array', []],
    ])('%s where the body must be an object answers 400 before any per-field work', async (_, body) => {
      // An array body once reached class-transformer whole: 999 objects of 99 keys cost ~200 ms
      // of the event loop per request (bench/hostile-input measures each hostile body's cost).
      const res = await ctx
        .http()
        .post('/v1/investors')
        .set('Authorization', basic(tenant.test))
        .set('Content-Type', 'application/json')
        .send(JSON.stringify(body));
      expectSvcError(res, 'SVC-400-001', { message: /request body must be a JSON object/ });
      expect(res.body.error.param).toBeUndefined();
    });

    it('every hostile body answers a 4xx, with an investor key and with the tenant key', async () => {
      const key = await investorKey(ctx, tenant.test, investor.id);
      const bodies: Array<[string, unknown]> = [
        [orders(), manyKeys(70_000)],
        [orders(), { ...order, zz: Array.from({ length: 999 }, () => manyKeys(99)) }],
        [
          '/v1/investors',
          { contact: { address: { street: Array.from({ length: 999 }, () => 'x'.repeat(900)) } } },
        ],
      ];
      for (const [path, body] of bodies) {
        for (const creds of [key, tenant.test]) {
          const res = await ctx.as(creds).post(path, body);
          expect([400, 403]).toContain(res.status);
        }
      }
    });
  });

  describe('offset and limit are bounded', () => {
    it.each(['99999999999999999999', '9223372036854775808', '1e308', '1000001'])(
      'offset=%s answers 400 naming offset on the order and transaction lists',
      async (offset) => {
        for (const path of [orders(), `/v1/wallet/accounts/${investor.account_id}/transactions`]) {
          expectSvcError(await client().get(`${path}?offset=${offset}`), 'SVC-400-001', { param: 'offset' });
        }
      },
    );

    it('limit past 100 answers 400 naming limit', async () => {
      expectSvcError(await client().get(`${orders()}?limit=1e308`), 'SVC-400-001', { param: 'limit' });
    });
  });

  describe('null where a value is required answers 400 naming the field', () => {
    it.each(['quantity', 'limit_price', 'stop_price', 'trail_percent', 'trail_price', 'symbol', 'metadata'])(
      'order placement: %s: null',
      async (field) => {
        const res = await client().post(orders(), { ...order, [field]: null });
        expect(res.status).toBe(400);
        expect(res.body.error.param).toBe(field);
      },
    );

    it.each(['account_rate_bps', 'name', 'correspondent_rate_bps', 'is_default', 'metadata'])(
      'PATCH apr-tiers: %s: null',
      async (field) => {
        const tier = await client().post('/v1/cash-management/apr-tiers', {
          name: `nulls-${field}`,
          account_rate_bps: 100,
        });
        expect(tier.status).toBe(201);
        const res = await ctx
          .http()
          .patch(`/v1/cash-management/apr-tiers/${tier.body.id}`)
          .set('Authorization', basic(tenant.test))
          .send({ [field]: null });
        expectSvcError(res, 'SVC-400-001', { param: field, message: /null is not accepted/ });
      },
    );

    itSandbox('PATCH sandbox tenant: fixedIncomeEnabled: null', async () => {
      const res = await ctx
        .http()
        .patch(`/v1/sandbox/tenants/${tenant.tenantId}`)
        .set('Authorization', `Bearer ${adminToken()}`)
        .send({ fixedIncomeEnabled: null });
      expectSvcError(res, 'SVC-400-001', { param: 'fixedIncomeEnabled' });
    });

    it('a field documented nullable still takes null (a test price override removed)', async () => {
      const res = await client().post('/v1/test_helpers/prices', { symbol: 'AAPL', price: null });
      expect(res.status).toBe(200);
    });
  });

  it('ten concurrent APR tiers of one name: one 201, the rest 400 naming name, no 500', async () => {
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        client().post('/v1/cash-management/apr-tiers', { name: 'raced', account_rate_bps: 200 }),
      ),
    );
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 400, 400, 400, 400, 400, 400, 400, 400, 400]);
    for (const res of answers.filter((r) => r.status === 400)) {
      expect(res.body.error.param).toBe('name');
    }
  });

  it('ten concurrent default APR tiers: no 500 (the default mark is taken by one at a time)', async () => {
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        client().post('/v1/cash-management/apr-tiers', {
          name: `default-${i}`,
          account_rate_bps: 200,
          is_default: true,
        }),
      ),
    );
    for (const res of answers) {
      expect([201, 409]).toContain(res.status);
    }
    const list = await client().get('/v1/cash-management/apr-tiers?currency=USD');
    expect(list.body.data.filter((t: { is_default: boolean }) => t.is_default)).toHaveLength(1);
  });

  const client = () => ctx.as(tenant.test);
  const orders = () => `/v1/investors/${investor.id}/orders`;
  const order = {
    symbol: 'AAPL',
    side: 'buy',
    type: 'limit',
    time_in_force: 'day',
    quantity: '1',
    limit_price: '5',
  };
});

/**
 * An object of `n` keys, k0 to k(n-1). A declaration, hoisted: the it.each tables above call it
 * while the describe builds them.
 */
function manyKeys(n: number) {
  return Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));
}
