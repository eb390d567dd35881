import { basic, listeningUrl, useTenant, useTestContext } from '../support/app';
import { expectSvcError } from '../support/errors';
import { openStream, OpenStream } from '../support/event-stream';
import { createInvestor, investorKey } from '../investors/fixtures';
import { activeInvestor } from '../wallet/support/wallet';

/** GET /v1/events/stream (docs/decisions.md, Events and webhooks): local and against a sandbox (E2E_BASE_URL). */
describe('GET /v1/events/stream', () => {
  const ctx = useTestContext();
  let baseUrl: string;
  beforeAll(async () => (baseUrl = await listeningUrl(ctx)));
  const tenant = useTenant(ctx);
  const open: OpenStream[] = [];
  afterEach(() => open.splice(0).forEach((s) => s.close()));

  it('sends each committed event once as id, event and the webhook payload', async () => {
    const s = await stream(tenant.test);
    expect(s.status).toBe(200);
    expect(s.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    const investor = await createInvestor(ctx, tenant.test);
    const [created] = await s.waitFor(1, (m) => m.data.data.investor_id === investor.id);
    expect(created.event).toBe('account.created');
    expect(created.id).toBe(created.data.id);
    expect(created.data).toEqual(await listed(created.id));
    expect(created.data.livemode).toBe(false);
  });

  it('filters by types (names and wildcards), and refuses an unknown one naming types', async () => {
    const onlyKyc = await stream(tenant.test, { query: 'types=kyc.verification.approved' });
    const accounts = await stream(tenant.test, {
      query: `types=${encodeURIComponent('account.*,order.filled')}`,
    });
    const all = await stream(tenant.test);
    const investor = await activeInvestor(ctx, tenant.test);
    const about = (m: { data: any }) => m.data.data.investor_id === investor.id;
    await all.waitFor(1, (m) => about(m) && m.event === 'kyc.verification.approved');
    await onlyKyc.waitFor(1, about);
    await accounts.waitFor(2, about);
    await new Promise((r) => setTimeout(r, 300)); // anything extra would have arrived
    // Events of one transaction may share a millisecond: the stream keeps commit order, the list
    // sorts ties by id, so the ids are compared as sets here (the replay test checks order).
    const ids = (s: OpenStream) =>
      s.events
        .filter(about)
        .map((m) => m.id)
        .sort();
    const idsOf = (events: Array<{ id: string }>) => events.map((e) => e.id).sort();
    const everything = await listedAbout(investor.id);
    expect(everything.map((e) => e.event)).toEqual(
      expect.arrayContaining(['account.created', 'account.updated', 'kyc.verification.approved']),
    );
    expect(ids(all)).toEqual(idsOf(everything));
    expect(ids(onlyKyc)).toEqual(idsOf(await listedAbout(investor.id, 'kyc.verification.approved')));
    expect(ids(accounts)).toEqual(idsOf(await listedAbout(investor.id, 'account.*')));

    for (const types of ['order.flled', 'orders.*', '', 'order.*,,account.created', 'webhook.test']) {
      const refused = await stream(tenant.test, { query: `types=${encodeURIComponent(types)}` });
      expectSvcError(svc(refused), 'SVC-400-001', { param: 'types', message: /types/ });
    }
  });

  it('replays what came after Last-Event-ID or since_id, the header winning', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const investor = await createInvestor(ctx, tenant.test);
      const page = await ctx.as(tenant.test).get('/v1/events?event=account.created&limit=100');
      ids.push(page.body.data.find((e: any) => e.data.investor_id === investor.id).id);
    }
    const afterFirst = await stream(tenant.test, { query: `types=account.created&since_id=${ids[0]}` });
    await afterFirst.waitFor(2);
    expect(afterFirst.events.map((m) => m.id)).toEqual(ids.slice(1));
    for (const m of afterFirst.events) {
      expect(m.data).toEqual(await listed(m.id));
    }

    const header = await stream(tenant.test, {
      query: `types=account.created&since_id=${ids[0]}`,
      lastEventId: ids[1],
    });
    await header.waitFor(1);
    expect(header.events.map((m) => m.id)).toEqual([ids[2]]);

    // Replay, then live: the next event follows without a gap or a repeat.
    const investor = await createInvestor(ctx, tenant.test);
    const [next] = await header.waitFor(2);
    expect(header.events.map((m) => m.id)).toEqual([ids[2], header.events[1].id]);
    expect(next.data.data.investor_id).not.toBe(investor.id);
    expect(header.events[1].data.data.investor_id).toBe(investor.id);
  });

  it('refuses a since_id the key cannot read with 400 naming since_id', async () => {
    const other = await ctx.createTenant();
    await createInvestor(ctx, other.test);
    const foreign = (await ctx.as(other.test).get('/v1/events?limit=1')).body.data[0].id as string;
    const mine = await createInvestor(ctx, tenant.test);
    const someone = await createInvestor(ctx, tenant.test);
    const events = (await ctx.as(tenant.test).get('/v1/events?event=account.created&limit=100')).body.data;
    const someonesEvent = events.find((e: any) => e.data.investor_id === someone.id).id as string;
    const key = await investorKey(ctx, tenant.test, mine.id);

    const refusals = [
      await stream(tenant.test, { query: `since_id=${foreign}` }),
      await stream(tenant.test, { lastEventId: 'evt_doesnotexist00000000' }),
      await stream(tenant.test, { query: 'since_id=ord_3nF8qK1sX0aZ7vB2mL9cTw' }),
      await stream(tenant.live, { query: `since_id=${someonesEvent}` }),
      await stream(key, { query: `since_id=${someonesEvent}` }),
    ];
    for (const refused of refusals) {
      expectSvcError(svc(refused), 'SVC-400-001', { param: 'since_id', message: /since_id/ });
    }
  });

  it("gives an investor key its own investor's events only", async () => {
    const mine = await createInvestor(ctx, tenant.test);
    const key = await investorKey(ctx, tenant.test, mine.id);
    const s = await stream(key);
    expect(s.status).toBe(200);
    const someone = await createInvestor(ctx, tenant.test);
    await ctx.as(tenant.test).post(`/v1/test_helpers/investors/${someone.id}/kyc/approve`);
    await ctx.as(tenant.test).post(`/v1/test_helpers/investors/${mine.id}/kyc/approve`);
    await s.waitFor(1, (m) => m.event === 'kyc.verification.approved');
    const expected = (await listedAbout(mine.id)).filter((e) => e.event !== 'account.created');
    expect(expected.length).toBeGreaterThanOrEqual(2);
    expect(s.events.map((m) => m.id).sort()).toEqual(expected.map((e) => e.id).sort());
    expect(s.events.every((m) => m.data.data.investor_id === mine.id)).toBe(true);
    // Replay is scoped the same way.
    const replay = await stream(key, { query: `since_id=${expected[0].id}` });
    await replay.waitFor(expected.length - 1);
    expect(replay.events.map((m) => m.id)).toEqual(expected.slice(1).map((e) => e.id));
  });

  it('holds at most 10 open streams per key across processes; closing one frees its slot at once', async () => {
    const limited = await ctx.createTenant();
    const streams = [];
    for (let i = 0; i < 10; i++) {
      streams.push(await stream(limited.test));
    }
    expect(streams.map((s) => s.status)).toEqual(Array(10).fill(200));
    const refused = await stream(limited.test);
    expectSvcError(svc(refused), 'SVC-429-001', { message: /10 open event streams/ });
    expect(refused.headers['retry-after']).toBe('5');
    // Another key of the tenant has its own ten.
    const liveKey = await stream(limited.live);
    expect(liveKey.status).toBe(200);

    streams[3].close();
    const deadline = Date.now() + 2_000;
    let reopened = await stream(limited.test);
    while (reopened.status === 429 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      reopened = await stream(limited.test);
    }
    expect(reopened.status).toBe(200);
  });

  it('needs a key, like every route', async () => {
    const res = await ctx.http().get('/v1/events/stream');
    expect(res.status).toBe(401);
    const bad = await ctx
      .http()
      .get('/v1/events/stream')
      .set('Authorization', basic({ ...tenant.test, secret: 'sk_test_wrong' }));
    expect(bad.status).toBe(401);
  });

  const stream = async (...args: Parameters<typeof openStream> extends [string, ...infer R] ? R : never) => {
    const s = await openStream(baseUrl, ...args);
    open.push(s);
    return s;
  };
  const svc = (s: OpenStream) => ({
    status: s.status,
    body: s.body,
    headers: s.headers as Record<string, string>,
  });
  /** What GET /v1/events lists about one investor (matching `event`), oldest first. */
  const listedAbout = async (investorId: string, event = '*') => {
    const page = await ctx.as(tenant.test).get(`/v1/events?limit=100&event=${encodeURIComponent(event)}`);
    return (page.body.data as Array<{ id: string; event: string; data: any }>)
      .filter((e) => e.data.investor_id === investorId)
      .reverse();
  };
  /** The record GET /v1/events/{id} answers: what the stream's data must equal. */
  const listed = async (id: string) => (await ctx.as(tenant.test).get(`/v1/events/${id}`)).body;
});
