import { cpus, loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { basic, createTestContext, itLocal, itSandbox, TestContext, TestTenant } from '../support/app';
import { expectSvcError } from '../support/errors';
import { adminToken } from '../support/remote';
import { investorKey } from '../investors/fixtures';
import { as } from '../wallet/support/wallet';

/** The hostile inputs that once answered 500 or froze the service answer a 4xx naming the field. */
describe('Hostile input: bounded validation, nulls, huge offsets, unique races', () => {
  let ctx: TestContext;
  let tenant: TestTenant;
  let investor: { id: string; account_id: string };

  beforeAll(async () => {
    ctx = await createTestContext();
    tenant = await ctx.createTenant({ products: ['cash_management'] });
    const created = await as(ctx, tenant.test).post('/v1/investors', {
      ...(await import('../investors/fixtures')).investorBody(),
    });
    investor = { id: created.body.id as string, account_id: created.body.account_id as string };
  });

  afterAll(() => ctx.close());

  const client = () => as(ctx, tenant.test);
  const orders = () => `/v1/investors/${investor.id}/orders`;
  const manyKeys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));
  const order = {
    symbol: 'AAPL',
    side: 'buy',
    type: 'limit',
    time_in_force: 'day',
    quantity: '1',
    limit_price: '5',
  };

  describe('wide objects and arrays are refused while parsing, naming the first field past the limit', () => {
    it('50,000 keys (0.73 MB) on order placement with an investor key', async () => {
      const key = await investorKey(ctx, tenant.test, investor.id);
      const res = await as(ctx, key).post(orders(), manyKeys(50_000));
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

    itLocal(
      'no hostile body holds the event loop for more than ~50 ms (event-loop delay measured)',
      async () => {
        const key = await investorKey(ctx, tenant.test, investor.id);
        const wideObjects = Array.from({ length: 999 }, () => manyKeys(99));
        const bodies: unknown[] = [
          manyKeys(50_000),
          manyKeys(70_000),
          { ...order, metadata: Array.from({ length: 60_000 }, (_, i) => i) },
          { ...order, zz: wideObjects },
          { contact: { address: { street: Array.from({ length: 999 }, () => 'x'.repeat(900)) } } },
          Array.from({ length: 999 }, () => manyKeys(99)),
        ];
        // Bodies are serialized before the measurement: this process runs the client as well.
        const sent = bodies.map((body) => ({
          path: Array.isArray(body) || 'contact' in (body as object) ? '/v1/investors' : orders(),
          text: JSON.stringify(body),
        }));
        const delays: number[] = [];
        const cpuMs: number[] = [];
        for (const { path, text } of sent) {
          const histogram = monitorEventLoopDelay({ resolution: 5 });
          const cpu = process.cpuUsage();
          histogram.enable();
          const res = await ctx
            .http()
            .post(path)
            .set('Authorization', basic(key))
            .set('Content-Type', 'application/json')
            .send(text);
          histogram.disable();
          const used = process.cpuUsage(cpu);
          expect(res.status).toBeGreaterThanOrEqual(400);
          expect(res.status).toBeLessThan(500);
          delays.push(histogram.max / 1e6);
          cpuMs.push((used.user + used.system) / 1000);
        }
        // The delay is wall time: on a machine running more processes than it has cores, a request's
        // 50 ms of work take longer by the length of the run queue (load average per core).
        const crowding = Math.max(1, loadavg()[0] / cpus().length);
        process.stdout.write(
          `event-loop delay per hostile body (max, ms): ${delays.map((d) => d.toFixed(1)).join(', ')}; ` +
            `process CPU per request (ms): ${cpuMs.map((d) => d.toFixed(0)).join(', ')}; ` +
            `load per core ${crowding.toFixed(1)}\n`,
        );
        // Before the bounds, 50,000 keys held the loop for 13 s (and 70,000 for longer).
        // Measured on a quiet machine: about 20 ms for the worst of these.
        expect(Math.max(...delays)).toBeLessThan(50 * crowding);
      },
    );
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
});
