import { createTestContext, isRemote, itLocal, TestContext, TestCredentials } from '../support/app';
import { expectSvcError } from '../support/errors';
import { SchedulerProbeController } from '../support/scheduler-probe.controller';
import { investorKey, createInvestor } from '../investors/fixtures';
import { fundedAccount } from '../wallet/support/wallet';

// The relay looks for due jobs often, so jobs due "now" run within the test's patience.
process.env.SCHEDULER_INTERVAL_MS = '100';

describe('Test clock', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestContext({ controllers: [SchedulerProbeController] });
  });

  afterAll(() => ctx?.close());

  it('follows real time until frozen; freezes, advances, refuses to go back, and resets', async () => {
    const { test } = await ctx.createTenant();
    const before = Date.now();
    const initial = await clock(test);
    expect(initial.status).toBe(200);
    expect(initial.body).toEqual({
      object: 'test_clock',
      frozen_time: null,
      now: expect.any(String),
      livemode: false,
    });
    expect(Date.parse(initial.body.now)).toBeGreaterThanOrEqual(before - 1000);

    const at = new Date(Math.ceil((Date.now() + 40 * 86_400_000) / 1000) * 1000);
    const frozen = await move(test, { frozen_time: at.toISOString() });
    expect(frozen.status).toBe(200);
    expect(frozen.body).toEqual({
      object: 'test_clock',
      frozen_time: at.toISOString(),
      now: at.toISOString(),
      livemode: false,
    });
    expect((await clock(test)).body.now).toBe(at.toISOString());

    const later = new Date(at.getTime() + 90 * 60_000);
    expect((await move(test, { advance_seconds: 5400 })).body).toMatchObject({
      frozen_time: later.toISOString(),
      now: later.toISOString(),
    });

    expectSvcError(await move(test, { frozen_time: at.toISOString() }), 'SVC-400-001', {
      param: 'frozen_time',
      message: `The clock only moves forward: frozen_time must not be earlier than ${later.toISOString()}, the time it shows.`,
    });
    expect((await clock(test)).body.frozen_time).toBe(later.toISOString());

    const reset = await move(test, { frozen_time: null });
    expect(reset.status).toBe(200);
    expect(reset.body.frozen_time).toBeNull();
    expect(Math.abs(Date.parse(reset.body.now) - Date.now())).toBeLessThan(5000);
  });

  it('advancing a clock that follows real time freezes it at real time plus the seconds', async () => {
    const { test } = await ctx.createTenant();
    const before = Date.now();
    const res = await move(test, { advance_seconds: 2 * HOUR });
    expect(res.status).toBe(200);
    const frozenAt = Date.parse(res.body.frozen_time);
    expect(frozenAt).toBeGreaterThanOrEqual(before + 2 * HOUR * 1000);
    expect(frozenAt).toBeLessThanOrEqual(Date.now() + 2 * HOUR * 1000);
  });

  it('refuses bad moves with 400 naming the field', async () => {
    const { test } = await ctx.createTenant();
    expectSvcError(await move(test, {}), 'SVC-400-002', { param: 'frozen_time' });
    expectSvcError(await move(test, { advance_seconds: 0 }), 'SVC-400-001', { param: 'advance_seconds' });
    expectSvcError(await move(test, { advance_seconds: -5 }), 'SVC-400-001', { param: 'advance_seconds' });
    expectSvcError(await move(test, { advance_seconds: 1.5 }), 'SVC-400-001', { param: 'advance_seconds' });
    expectSvcError(await move(test, { advance_seconds: '60' }), 'SVC-400-001', { param: 'advance_seconds' });
    expectSvcError(await move(test, { advance_seconds: 400 * 86_400 }), 'SVC-400-001', {
      param: 'advance_seconds',
    });
    expectSvcError(await move(test, { frozen_time: '2030-01-01' }), 'SVC-400-001', { param: 'frozen_time' });
    expectSvcError(await move(test, { frozen_time: '2030-13-45T10:00:00Z' }), 'SVC-400-001', {
      param: 'frozen_time',
    });
    expectSvcError(await move(test, { frozen_time: 1893456000 }), 'SVC-400-001', { param: 'frozen_time' });
    expectSvcError(await move(test, { frozen_time: '2020-01-01T00:00:00Z' }), 'SVC-400-001', {
      param: 'frozen_time',
    });
    expectSvcError(await move(test, { frozen_time: '2100-01-01T00:00:00Z' }), 'SVC-400-001', {
      param: 'frozen_time',
      message: 'frozen_time must be earlier than 2100-01-01T00:00:00Z.',
    });
    expectSvcError(await move(test, { frozen_time: null, advance_seconds: 10 }), 'SVC-400-001', {
      param: 'advance_seconds',
    });
    expectSvcError(await move(test, { frozen_time: null, speed: 2 }), 'SVC-400-001', { param: 'speed' });
    expect((await clock(test)).body.frozen_time).toBeNull();
  });

  it('a clock following real time freezes at any later date; a frozen one moves at most 366 days', async () => {
    const { test } = await ctx.createTenant();
    // A walkthrough's fixed date, however far ahead of today it lies.
    expect((await move(test, { frozen_time: '2049-03-01T14:00:00Z' })).body.frozen_time).toBe(
      '2049-03-01T14:00:00.000Z',
    );
    expectSvcError(await move(test, { frozen_time: '2050-03-03T14:00:00Z' }), 'SVC-400-001', {
      param: 'frozen_time',
      message: 'One move may cover at most 366 days; move the clock in steps.',
    });
    expectSvcError(await move(test, { advance_seconds: 367 * 86_400 }), 'SVC-400-001', {
      param: 'advance_seconds',
    });
    expect((await move(test, { frozen_time: '2050-03-01T14:00:00Z' })).body.frozen_time).toBe(
      '2050-03-01T14:00:00.000Z',
    );
    // After a reset the clock follows real time again, and may be frozen at the same date once more.
    await move(test, { frozen_time: null });
    expect((await move(test, { frozen_time: '2049-03-01T14:00:00Z' })).status).toBe(200);
  });

  it('is tenant-level and test-mode only; each tenant has its own clock', async () => {
    const tenant = await ctx.createTenant();
    const other = await ctx.createTenant();
    const investor = await createInvestor(ctx, tenant.test);
    const scoped = await investorKey(ctx, tenant.test, investor.id);
    expectSvcError(await clock(scoped), 'SVC-403-001');
    expectSvcError(await move(scoped, { advance_seconds: 60 }), 'SVC-403-001');
    expectSvcError(await clock(tenant.live), 'SVC-404-001');
    expectSvcError(await move(tenant.live, { advance_seconds: 60 }), 'SVC-404-001');
    await move(tenant.test, { advance_seconds: 10 * 86_400 });
    expect((await clock(other.test)).body.frozen_time).toBeNull();
  });

  it('market clocks, calendars, quotes and bars of test mode read it; live mode keeps real time', async () => {
    const tenant = await ctx.createTenant({ products: ['market_data'] });
    const { date, at } = await nextTradingMorning(tenant.test);
    await move(tenant.test, { frozen_time: at.toISOString() });

    const open = await ctx.as(tenant.test).get('/v1/markets/XNYS/clock');
    expect(open.body).toMatchObject({ is_open: true, session: 'regular' });
    expect(Date.parse(open.body.timestamp)).toBe(at.getTime());
    const calendar = await ctx.as(tenant.test).get('/v1/markets/XNYS/calendar');
    expect(calendar.body.data[0].date).toBe(date);

    const quote = await ctx.as(tenant.test).get('/v1/market-data/assets/AAPL/quote');
    expect(quote.status).toBe(200);
    expect(quote.body.session).toBe('regular');
    const tradeTime = Date.parse(quote.body.trade.t);
    expect(tradeTime).toBeLessThanOrEqual(at.getTime());
    expect(tradeTime).toBeGreaterThan(at.getTime() - 120_000);
    // Newest first: an ascending first page starts a day back and ends there when the previous
    // day traded, whatever the clock.
    const bars = await ctx
      .as(tenant.test)
      .get('/v1/market-data/assets/AAPL/bars?timeframe=1Min&sort=desc&limit=1');
    const last = bars.body.bars[0];
    expect(Date.parse(last.t)).toBeLessThanOrEqual(at.getTime());
    expect(Date.parse(last.t)).toBeGreaterThan(at.getTime() - 120_000);

    const asset = await ctx.as(tenant.test).get('/v1/assets/AAPL');
    expect(asset.body.price_timestamp).toBe(quote.body.trade.t);

    const live = await ctx.as(tenant.live).get('/v1/markets/XNYS/clock');
    expect(Math.abs(Date.parse(live.body.timestamp) - Date.now())).toBeLessThan(60_000);
  });

  describe('jobs', () => {
    const probeEvents = async (creds: TestCredentials) => {
      const res = await ctx.as(creds).get('/v1/events?event=account.updated&limit=100');
      return (res.body.data as Array<{ data: { probe?: string; ran_at: string; due_at: string } }>)
        .filter((e) => e.data.probe)
        .map((e) => e.data)
        .sort((a, b) => a.ran_at.localeCompare(b.ran_at));
    };
    const schedule = (creds: TestCredentials, body: object) => ctx.as(creds).post('/v1/probe/jobs', body);

    /** Scheduled probe jobs (a test-only route of the in-process app), at chosen times. */
    async function probeJobsRunInOrderAtTheirTimes(): Promise<void> {
      const { test } = await ctx.createTenant();
      const t0 = new Date(Math.ceil((Date.now() + 30 * 86_400_000) / 1000) * 1000);
      await move(test, { frozen_time: t0.toISOString() });
      const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000).toISOString();
      expect(
        (await schedule(test, { name: 'b', delay_seconds: 2 * HOUR, then_after_seconds: HOUR / 2 })).status,
      ).toBe(201);
      await schedule(test, { name: 'a', delay_seconds: HOUR });
      await schedule(test, { name: 'late', delay_seconds: 10 * HOUR });

      const moved = await move(test, { advance_seconds: 3 * HOUR });
      expect(moved.body.frozen_time).toBe(at(3 * HOUR));
      expect(await probeEvents(test)).toEqual([
        { probe: 'a', ran_at: at(HOUR), due_at: at(HOUR) },
        { probe: 'b', ran_at: at(2 * HOUR), due_at: at(2 * HOUR) },
        { probe: 'b.then', ran_at: at(2.5 * HOUR), due_at: at(2.5 * HOUR) },
      ]);

      await move(test, { frozen_time: at(10 * HOUR) });
      expect((await probeEvents(test)).map((e) => e.probe)).toEqual(['a', 'b', 'b.then', 'late']);
    }

    /**
     * The market's session jobs, through the API alone: an opg order placed on a Saturday fills at
     * Monday's open and a day limit order far from the price is canceled at Monday's close, each
     * at its job's due time by the clock, and done by the time the move answers.
     */
    async function sessionJobsRunInOrderAtTheirTimes(): Promise<void> {
      const { test } = await ctx.createTenant();
      await move(test, { frozen_time: '2049-03-06T17:00:00Z' }); // Saturday, noon in New York
      const { investor } = await fundedAccount(ctx, test, '10000.00');
      await ctx.as(test).post('/v1/test_helpers/prices', { symbol: 'IBM', price: '100.00' });
      const place = async (order: object) => {
        const res = await ctx.as(test).post(`/v1/investors/${investor.id}/orders`, {
          symbol: 'IBM',
          side: 'buy',
          quantity: '1',
          ...order,
        });
        expect(res.body.status).toBe('accepted');
        return res.body.id as string;
      };
      const opg = await place({ type: 'market', time_in_force: 'opg' });
      const day = await place({ type: 'limit', time_in_force: 'day', limit_price: '50' });
      /** The order's state and when the job that ended it ran (by the clock), as the API shows it. */
      const ended = async (orderId: string) => {
        const order = (await ctx.as(test).get(`/v1/investors/${investor.id}/orders/${orderId}`)).body;
        return [order.status, order.filled_at ?? order.canceled_at];
      };

      // To Monday 12:00 New York: the open (09:30 EST = 14:30Z) fell due; the close did not.
      expect((await move(test, { frozen_time: '2049-03-08T17:00:00Z' })).status).toBe(200);
      expect(await ended(opg)).toEqual(['filled', '2049-03-08T14:30:00.000Z']);
      expect(await ended(day)).toEqual(['accepted', null]);
      // To Tuesday: the close (16:00 EST = 21:00Z) cancels the day order, at its time.
      await move(test, { advance_seconds: 24 * HOUR });
      expect(await ended(day)).toEqual(['canceled', '2049-03-08T21:00:00.000Z']);
    }

    it('a move runs every job that fell due, earliest first, at its due time, before it answers', async () => {
      if (!isRemote) {
        await probeJobsRunInOrderAtTheirTimes();
      }
      await sessionJobsRunInOrderAtTheirTimes();
    });

    itLocal('jobs due by a frozen clock run through the queue; a job scheduled past it waits', async () => {
      const { test } = await ctx.createTenant();
      const t0 = new Date(Math.ceil((Date.now() + 30 * 86_400_000) / 1000) * 1000);
      await move(test, { frozen_time: t0.toISOString() });
      await schedule(test, { name: 'now', delay_seconds: 0 });
      await schedule(test, { name: 'later', delay_seconds: 60 });
      const deadline = Date.now() + 10_000;
      while ((await probeEvents(test)).length === 0 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
      }
      await new Promise((r) => setTimeout(r, 500));
      expect(await probeEvents(test)).toEqual([
        { probe: 'now', ran_at: t0.toISOString(), due_at: t0.toISOString() },
      ]);
    });

    itLocal('a clock following real time runs jobs when real time reaches them', async () => {
      const { test } = await ctx.createTenant();
      const scheduled = await schedule(test, { name: 'soon', delay_seconds: 1 });
      const deadline = Date.now() + 10_000;
      let events = await probeEvents(test);
      while (events.length === 0 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        events = await probeEvents(test);
      }
      expect(events).toHaveLength(1);
      expect(Date.parse(events[0].ran_at)).toBeGreaterThanOrEqual(Date.parse(scheduled.body.due_at));
    });
  });

  const clock = (creds: TestCredentials) => ctx.as(creds).get('/v1/test_helpers/clock');
  const move = (creds: TestCredentials, body: object) => ctx.as(creds).post('/v1/test_helpers/clock', body);

  /** A regular-session instant of a NYSE trading day at least a week from now (from the calendar). */
  async function nextTradingMorning(creds: TestCredentials): Promise<{ date: string; at: Date }> {
    const start = new Date(Date.now() + 8 * 86_400_000).toISOString().slice(0, 10);
    const end = new Date(Date.now() + 22 * 86_400_000).toISOString().slice(0, 10);
    const days = await ctx.as(creds).get(`/v1/markets/XNYS/calendar?start=${start}&end=${end}`);
    const day = days.body.data[0] as { date: string; open: string };
    return { date: day.date, at: new Date(Date.parse(day.open) + 30 * 60_000) };
  }
});

const HOUR = 3600;
