import { basic, createTestContext, TestContext, TestTenant } from '../support/app';
import { expectSvcError } from '../support/errors';

describe('Markets, clocks and calendars', () => {
  let ctx: TestContext;
  let tenant: TestTenant;

  beforeAll(async () => {
    ctx = await createTestContext();
    tenant = await ctx.createTenant();
  });

  afterAll(() => ctx?.close());

  const get = (path: string) => ctx.http().get(path).set('Authorization', basic(tenant.test));

  it('lists every market with its hours', async () => {
    const res = await get('/v1/markets');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'list', url: '/v1/markets', has_more: false });
    expect(res.body.data.map((m: { code: string }) => m.code)).toEqual([
      'XNAS',
      'XNYS',
      'ARCA',
      'BATS',
      'OTC',
      'XNSA',
      'XNAI',
      'CRYPTO',
    ]);
    expect(res.body.data[1]).toEqual({
      object: 'market',
      livemode: false,
      code: 'XNYS',
      name: 'New York Stock Exchange',
      display_name: 'NYSE',
      country: 'US',
      currency: 'USD',
      timezone: 'America/New_York',
      sessions: {
        pre: { start: '04:00', end: '09:30' },
        regular: { start: '09:30', end: '16:00' },
        post: { start: '16:00', end: '20:00' },
      },
      early_close_sessions: {
        regular: { start: '09:30', end: '13:00' },
        post: { start: '13:00', end: '17:00' },
      },
      has_holidays: true,
    });
    expect(res.body.data.find((m: { code: string }) => m.code === 'XNSA')).toMatchObject({
      display_name: 'NGX',
      country: 'NG',
      currency: 'NGN',
      timezone: 'Africa/Lagos',
      sessions: { pre: null, regular: { start: '10:00', end: '14:30' }, post: null },
    });
  });

  it('retrieves one market case-insensitively; an unknown code is 404', async () => {
    expect((await get('/v1/markets/xnai')).body).toMatchObject({
      code: 'XNAI',
      display_name: 'NSE',
      currency: 'KES',
    });
    expectSvcError(await get('/v1/markets/XLON'), 'SVC-404-001', { message: "No such market: 'XLON'." });
  });

  describe('clock', () => {
    it('is closed on Independence Day 2025 and opens the next Monday', async () => {
      const res = await get('/v1/markets/XNYS/clock?at=2025-07-04T15:00:00Z');
      expect(res.body).toEqual({
        object: 'market_clock',
        livemode: false,
        market: 'XNYS',
        timestamp: '2025-07-04T11:00:00-04:00',
        is_open: false,
        session: 'closed',
        next_open: '2025-07-07T09:30:00-04:00',
        next_close: '2025-07-07T16:00:00-04:00',
      });
    });

    it('closes at 13:00 on the 3 July 2025 early close, then runs the post session to 17:00', async () => {
      const open = await get('/v1/markets/XNAS/clock?at=2025-07-03T16:59:00Z');
      expect(open.body).toMatchObject({
        is_open: true,
        session: 'regular',
        next_close: '2025-07-03T13:00:00-04:00',
      });
      const after = await get('/v1/markets/XNAS/clock?at=2025-07-03T17:30:00Z');
      expect(after.body).toMatchObject({
        timestamp: '2025-07-03T13:30:00-04:00',
        is_open: false,
        session: 'post',
        next_open: '2025-07-07T09:30:00-04:00',
      });
    });

    it('is in the pre-market session before the open', async () => {
      const res = await get('/v1/markets/XNYS/clock?at=2025-07-07T12:00:00Z');
      expect(res.body).toMatchObject({
        is_open: false,
        session: 'pre',
        next_open: '2025-07-07T09:30:00-04:00',
      });
    });

    it('crypto never closes', async () => {
      const res = await get('/v1/markets/CRYPTO/clock?at=2025-12-25T03:00:00Z');
      expect(res.body).toMatchObject({
        is_open: true,
        session: 'regular',
        next_open: null,
        next_close: null,
      });
    });

    it('Nigerian and Kenyan markets close for their own holidays', async () => {
      // Workers' Day (1 May 2025, a Thursday) closes NGX; Madaraka Day (1 June 2026, a Monday) closes NSE.
      expect((await get('/v1/markets/XNSA/clock?at=2025-05-01T10:00:00Z')).body).toMatchObject({
        is_open: false,
        next_open: '2025-05-02T10:00:00+01:00',
      });
      expect((await get('/v1/markets/XNAI/clock?at=2026-06-01T08:00:00Z')).body).toMatchObject({
        is_open: false,
        next_open: '2026-06-02T09:00:00+03:00',
      });
    });

    it('names `at` when it is not a date-time', async () => {
      expectSvcError(await get('/v1/markets/XNYS/clock?at=tomorrow'), 'SVC-400-001', { param: 'at' });
    });
  });

  describe('calendar', () => {
    it('leaves out the holiday and marks the early close', async () => {
      const res = await get('/v1/markets/XNYS/calendar?start=2025-07-01&end=2025-07-08');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ object: 'list', url: '/v1/markets/XNYS/calendar', has_more: false });
      expect(res.body.data.map((d: { date: string }) => d.date)).toEqual([
        '2025-07-01',
        '2025-07-02',
        '2025-07-03',
        '2025-07-07',
        '2025-07-08',
      ]);
      expect(res.body.data[2]).toEqual({
        object: 'trading_day',
        livemode: false,
        date: '2025-07-03',
        is_trading_day: true,
        holiday_name: null,
        early_close: true,
        pre_open: '2025-07-03T04:00:00-04:00',
        open: '2025-07-03T09:30:00-04:00',
        close: '2025-07-03T13:00:00-04:00',
        post_close: '2025-07-03T17:00:00-04:00',
      });
      expect(res.body.data[0]).toMatchObject({ early_close: false, close: '2025-07-01T16:00:00-04:00' });
    });

    it('lists closed days with their holiday when include_closed=true', async () => {
      const res = await get('/v1/markets/XNYS/calendar?start=2025-11-27&end=2025-11-28&include_closed=true');
      expect(res.body.data).toEqual([
        expect.objectContaining({
          date: '2025-11-27',
          is_trading_day: false,
          holiday_name: 'Thanksgiving Day',
          open: null,
        }),
        expect.objectContaining({
          date: '2025-11-28',
          is_trading_day: true,
          early_close: true,
          close: '2025-11-28T13:00:00-05:00',
        }),
      ]);
    });

    it.each([
      ['start=2025-13-01&end=2025-12-31', 'start'],
      ['start=2025-01-01&end=31-12-2025', 'end'],
      ['start=2025-03-01&end=2025-02-01', 'start'],
      ['start=2025-01-01&end=2026-06-01', 'end'],
      ['start=2025-01-01&include_closed=maybe', 'include_closed'],
    ])('%s answers 400 naming %s', async (query, param) => {
      expectSvcError(await get(`/v1/markets/XNYS/calendar?${query}`), 'SVC-400-001', { param });
    });
  });
});
