import { basic, isRemote, itLocal, TestContext, TestTenant, useTenant, useTestContext } from '../support/app';
import { expectSvcError } from '../support/errors';
import { freezeClock, MONDAY_OPEN, setPrice } from '../trading/support/trading';
import { fundedAccount, fundingBody } from '../wallet/support/wallet';
import { accountCreatedEvent } from './support/sinks';
import { dropQueueKeys, emit, matchesEventFilter } from './support/webhooks';

describe('GET /v1/events', () => {
  const ctx = useTestContext();
  const tenant = useTenant(ctx);
  beforeAll(() => seedEvents());
  // The queue keys go once the app has stopped.
  afterAll(async () => {
    await ctx.close();
    await dropQueueKeys();
  });

  it('lists this tenant and mode, newest first, as the delivered records', async () => {
    const res = await get('/v1/events');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'list', url: '/v1/events', has_more: false });
    expect(idsOf(res.body)).toEqual(newestFirst);
    // Each listed record is the event as GET /v1/events/{id} (and a delivery) carries it.
    for (const record of res.body.data) {
      expect(record).toEqual((await get(`/v1/events/${record.id}`)).body);
      expect(record).toMatchObject({ object: 'event', livemode: false });
    }
    if (isRemote) {
      expect(res.body.data[0].event).toBe('account.created');
    } else {
      expect(res.body.data[3]).toEqual({
        id: ids['order.filled'],
        object: 'event',
        event: 'order.filled',
        timestamp: new Date((base + 2 * 3600) * 1000).toISOString(),
        livemode: false,
        data: { seq: 2 },
      });
    }
    const live = await get('/v1/events', tenant.live);
    expect(idsOf(live.body)).toEqual([ids.live]);
    expect(live.body.data[0].livemode).toBe(true);
  });

  it.each([
    ['order.*', ['order.filled', 'order.accepted']],
    ['order.filled', ['order.filled']],
    [
      'transfer.*',
      ['transfer.withdrawal.initiated', 'transfer.deposit.completed', 'transfer.deposit.initiated'],
    ],
    ['transfer.deposit.*', ['transfer.deposit.completed', 'transfer.deposit.initiated']],
    ['account.*', ['account.created']],
    ['document.*', []],
    [
      '*',
      [
        'transfer.withdrawal.initiated',
        'transfer.deposit.completed',
        'transfer.deposit.initiated',
        'order.filled',
        'order.accepted',
        'account.created',
      ],
    ],
  ])('event=%s filters by name or wildcard', async (filter, names) => {
    const res = await get(`/v1/events?limit=100&event=${encodeURIComponent(filter)}`, historyCreds);
    expect(res.status).toBe(200);
    // Exactly the history's matching events, in the listing's order, and one of each name expected.
    expect(idsOf(res.body)).toEqual(
      history.filter((e) => matchesEventFilter(filter, e.event)).map((e) => e.id),
    );
    expect(res.body.data.map((e: { event: string }) => e.event)).toEqual(expect.arrayContaining(names));
    if (!isRemote) {
      expect(idsOf(res.body)).toEqual(names.map((n) => ids[n]));
    }
  });

  /**
   * Remotely: three events made through the API in three different seconds, bounded by those
   * seconds (the local case bounds a seeded history instead).
   */
  async function createdBoundsOnApiEvents(): Promise<void> {
    const own = await ctx.createTenant();
    const made: Array<{ id: string; second: number }> = [];
    for (let i = 0; i < 3; i++) {
      const id = await accountCreatedEvent(ctx, own.test);
      const second = Math.floor(Date.parse((await get(`/v1/events/${id}`, own.test)).body.timestamp) / 1000);
      made.push({ id, second });
      // Wait for the next second by the server's clock (its Date header), not this machine's.
      while (i < 2 && Date.parse((await ctx.http().get('/health/ready')).headers.date) / 1000 <= second) {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    const [a, b, c] = made;
    expect(a.second < b.second && b.second < c.second).toBe(true);
    const list = async (query: string) => idsOf((await get(`/v1/events?${query}`, own.test)).body);
    expect(await list(`created[gte]=${b.second}`)).toEqual([c.id, b.id]);
    expect(await list(`created[lte]=${b.second}`)).toEqual([b.id, a.id]);
    expect(await list(`created[gte]=${a.second}&created[lte]=${b.second}`)).toEqual([b.id, a.id]);
    expect(await list(`created[gt]=${a.second}&created[lt]=${c.second}`)).toEqual([b.id]);
  }

  it('created[gte] / created[lte] bound by Unix seconds, inclusively; gt / lt exclusively', async () => {
    if (isRemote) {
      await createdBoundsOnApiEvents();
      return;
    }
    const at = (h: number) => base + h * 3600;
    expect(idsOf((await get(`/v1/events?created[gte]=${at(4)}`)).body)).toEqual([
      ids['transfer.withdrawal.initiated'],
      ids['transfer.deposit.completed'],
    ]);
    expect(idsOf((await get(`/v1/events?created[lte]=${at(1)}`)).body)).toEqual([
      ids['order.accepted'],
      ids['account.created'],
    ]);
    expect(
      idsOf((await get(`/v1/events?created[gte]=${at(1)}&created[lte]=${at(2)}&event=order.*`)).body),
    ).toEqual([ids['order.filled'], ids['order.accepted']]);
    expect(idsOf((await get(`/v1/events?created[gt]=${at(1)}&created[lt]=${at(3)}`)).body)).toEqual([
      ids['order.filled'],
    ]);
  });

  it('pages with limit, starting_after and ending_before', async () => {
    const [first1, first2, next1, next2] = newestFirst;
    const first = await get('/v1/events?limit=2');
    expect(first.body.has_more).toBe(true);
    expect(idsOf(first.body)).toEqual([first1, first2]);
    const second = await get(`/v1/events?limit=2&starting_after=${first2}`);
    expect(idsOf(second.body)).toEqual([next1, next2]);
    expect(second.body.has_more).toBe(true);
    const back = await get(`/v1/events?limit=2&ending_before=${next1}`);
    expect(idsOf(back.body)).toEqual([first1, first2]);
    const last = await get(`/v1/events?limit=2&starting_after=${newestFirst[3]}`);
    expect(idsOf(last.body)).toEqual(newestFirst.slice(4));
    expect(last.body.has_more).toBe(false);
    // A filter and a cursor together: the order events of the history, one page after the newest.
    const [newestOrder, olderOrder] = history
      .filter((e) => matchesEventFilter('order.*', e.event))
      .map((e) => e.id);
    const filtered = await get(
      `/v1/events?event=order.*&limit=1&starting_after=${newestOrder}`,
      historyCreds,
    );
    expect(idsOf(filtered.body)).toEqual([olderOrder]);
    expect(filtered.body.has_more).toBe(false);
  });

  it.each([
    ['event=order', 'event'],
    ['event=orders.*', 'event'],
    ['event=foo.bar', 'event'],
    ['created[gte]=yesterday', 'created[gte]'],
    ['created[lte]=-5', 'created[lte]'],
    ['created[after]=1', 'created[after]'],
    ['created=5', 'created'],
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['starting_after=evt_nosuchevent', 'starting_after'],
  ])('%s answers 400 SVC-400-001 param %s', async (query, param) => {
    expectSvcError(await get(`/v1/events?${query}`), 'SVC-400-001', { param });
  });

  it('a cursor from another tenant or the other mode is no cursor', async () => {
    const creds = made.tenant!.test;
    expect((await get(`/v1/events?starting_after=${made.test}`, creds)).status).toBe(200);
    for (const foreign of [made.foreign, made.live]) {
      expectSvcError(await get(`/v1/events?starting_after=${foreign}`, creds), 'SVC-400-001', {
        param: 'starting_after',
      });
    }
  });

  it('GET /v1/events/{id} returns one event; other tenants, the other mode and junk ids answer 404', async () => {
    const { test, live } = made.tenant!;
    const res = await get(`/v1/events/${made.test}`, test);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: made.test,
      object: 'event',
      event: 'account.created',
      livemode: false,
    });
    expectSvcError(await get(`/v1/events/${made.foreign}`, test), 'SVC-404-001');
    expectSvcError(await get(`/v1/events/${made.test}`, live), 'SVC-404-001');
    expectSvcError(await get(`/v1/events/${made.live}`, test), 'SVC-404-001');
    expectSvcError(await get('/v1/events/nonsense', test), 'SVC-404-001', {
      message: "No such event: 'nonsense'.",
    });
    const own = await get(`/v1/events/${made.live}`, live);
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ id: made.live, livemode: true });
  });

  itLocal('an event emitted in a transaction that rolls back does not exist', async () => {
    const { DataSource } = await import('typeorm');
    const { EventsService } = await import('src/core/events/events.service');
    const app = ctx.app!;
    let emittedId = '';
    await expect(
      app.get(DataSource).transaction(async (manager) => {
        emittedId = (
          await app
            .get(EventsService)
            .emit(manager, { tenantId: tenant.tenantId, livemode: false, event: 'order.canceled', data: {} })
        ).id;
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(emittedId).toMatch(/^evt_/);
    expectSvcError(await get(`/v1/events/${emittedId}`), 'SVC-404-001');
    expect(idsOf((await get('/v1/events?event=order.canceled')).body)).toEqual([]);
  });

  const ids: Record<string, string> = {};
  /** Events made through the public API (an investor's account.created), so both modes can check them. */
  const made: Made = { test: '', live: '', foreign: '' };
  let newestFirst: string[] = [];
  let history: Array<{ id: string; event: string }> = [];
  let historyCreds: TestTenant['test'];

  /**
   * Events of the three tenants and modes. newestFirst: the tenant's test-mode events, newest first;
   * history (read with historyCreds): what the event= filters run over, newest first. Both are the
   * seeded history locally; remotely, events made through the API and a history of the same
   * families made through trading and wallet routes.
   */
  async function seedEvents(): Promise<void> {
    made.tenant = await ctx.createTenant();
    const other = await ctx.createTenant();
    made.test = await accountCreatedEvent(ctx, made.tenant.test);
    made.live = await accountCreatedEvent(ctx, made.tenant.live);
    made.foreign = await accountCreatedEvent(ctx, other.test);
    if (isRemote) {
      // The seeded history below is written inside the app (events at set times); remotely the
      // paging checks run on events made one after another through the API.
      const oldestFirst: string[] = [];
      for (let i = 0; i < 6; i++) {
        oldestFirst.push(await accountCreatedEvent(ctx, tenant.test));
      }
      newestFirst = oldestFirst.reverse();
      ids.live = await accountCreatedEvent(ctx, tenant.live);
      historyCreds = (await ctx.createTenant()).test;
      history = await historyThroughApi(ctx, historyCreds);
      return;
    }
    // Six events an hour apart (oldest first), plus noise that must never show up.
    const names = [
      'account.created',
      'order.accepted',
      'order.filled',
      'transfer.deposit.initiated',
      'transfer.deposit.completed',
      'transfer.withdrawal.initiated',
    ] as const;
    for (const [i, name] of names.entries()) {
      const event = await emit(ctx, { tenantId: tenant.tenantId, event: name, data: { seq: i } });
      await ctx.dataSource.query('UPDATE "events" SET "created_at" = to_timestamp($1) WHERE "id" = $2', [
        base + i * 3600,
        event.id,
      ]);
      ids[name] = event.id;
    }
    newestFirst = names.map((name) => ids[name]).reverse();
    history = [...names].reverse().map((name) => ({ id: ids[name], event: name }));
    historyCreds = tenant.test;
    ids.foreign = (await emit(ctx, { tenantId: other.tenantId, event: 'order.filled' })).id;
    ids.live = (await emit(ctx, { tenantId: tenant.tenantId, livemode: true, event: 'order.filled' })).id;
  }

  const base = Math.floor(Date.UTC(2025, 0, 10) / 1000);

  const get = (path: string, creds = tenant.test) => ctx.http().get(path).set('Authorization', basic(creds));
  const idsOf = (body: { data: Array<{ id: string }> }) => body.data.map((e) => e.id);
});

/**
 * A history made through the API alone, in the credentials' tenant: an investor (account.created),
 * a deposit and its settlement, a market buy that fills at once on a frozen open market, and a
 * withdrawal. Answers the tenant's test-mode events, newest first.
 */
async function historyThroughApi(
  ctx: TestContext,
  creds: TestTenant['test'],
): Promise<Array<{ id: string; event: string }>> {
  await freezeClock(ctx, creds, MONDAY_OPEN);
  const { investor, bank } = await fundedAccount(ctx, creds, '1000.00');
  await setPrice(ctx, creds, 'AAPL', '100.00');
  const client = ctx.as(creds);
  const order = await client.post(`/v1/investors/${investor.id}/orders`, {
    symbol: 'AAPL',
    side: 'buy',
    type: 'market',
    time_in_force: 'day',
    quantity: '1',
  });
  expect(order.body.status).toBe('filled');
  const withdrawal = await client.post(
    `/v1/wallet/accounts/${investor.account_id}/withdrawals`,
    fundingBody(bank.id, '10.00'),
  );
  expect(withdrawal.status).toBeLessThan(300);
  const res = await ctx.http().get('/v1/events?limit=100').set('Authorization', basic(creds));
  expect(res.body.has_more).toBe(false);
  return res.body.data;
}

type Made = { tenant?: TestTenant; test: string; live: string; foreign: string };
