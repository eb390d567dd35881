import Decimal from 'decimal.js';
import { priceFromYield } from 'src/modules/fixed-income/bond-math';
import { basic, useTenant, useTestContext } from '../support/app';
import { expectSvcError } from '../support/errors';

describe('Market Data add-on', () => {
  const ctx = useTestContext();
  const withProduct = useTenant(ctx, { products: ['market_data'] });
  const without = useTenant(ctx, { products: ['cash_management'] });

  const get = (path: string, tenant = withProduct) =>
    ctx.http().get(path).set('Authorization', basic(tenant.test));

  describe('entitlement', () => {
    it.each([
      '/v1/market-data/assets/AAPL/quote',
      '/v1/market-data/assets/AAPL/bars?timeframe=1Day',
      '/v1/market-data/snapshots?symbols=AAPL',
      '/v1/market-data/assets/NOPE/quote',
      '/v1/market-data/anything/else',
      '/legacy/v1/market-data/assets/AAPL/quote',
    ])('%s answers the legacy 403 body to a tenant without market_data', async (path) => {
      const res = await get(path, without);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        status: 'error',
        code: 'PRODUCT_NOT_ENABLED',
        message: 'The market_data product is not enabled for this tenant. Contact support to enable it.',
      });
      const live = await ctx.http().get(path).set('Authorization', basic(without.live));
      expect(live.status).toBe(403);
    });

    it('an unknown path under /market-data is 404 for a tenant with the product', async () => {
      expectSvcError(await get('/v1/market-data/anything/else'), 'SVC-404-001');
    });
  });

  describe('quote', () => {
    it('gives bid, ask, last trade and change of an equity', async () => {
      const res = await get('/v1/market-data/assets/aapl/quote');
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual([
        'object',
        'livemode',
        'symbol',
        'asset_id',
        'class',
        'market',
        'currency',
        'session',
        'source',
        'quote',
        'trade',
        'previous_close',
        'change',
        'change_percent',
      ]);
      const { quote, trade } = res.body;
      expect(res.body).toMatchObject({
        object: 'quote',
        livemode: false,
        symbol: 'AAPL',
        market: 'XNAS',
        source: 'simulated',
      });
      expect(['pre', 'regular', 'post', 'closed']).toContain(res.body.session);
      expect(Object.keys(quote)).toEqual(['t', 'bp', 'bs', 'ap', 'as']);
      expect(Object.keys(trade)).toEqual(['t', 'p', 's']);
      expect(quote.bp).toBeLessThan(trade.p);
      expect(quote.ap).toBeGreaterThan(trade.p);
      expect(res.body.change).toBeCloseTo(trade.p - res.body.previous_close, 2);
      // The asset record shows the same prices (asked again if a minute turned in between).
      let asset = await get('/v1/assets/AAPL');
      let again = res;
      if (asset.body.price_timestamp !== quote.t) {
        again = await get('/v1/market-data/assets/aapl/quote');
        asset = await get('/v1/assets/AAPL');
      }
      expect(asset.body).toMatchObject({
        price: again.body.trade.p,
        bidPrice: again.body.quote.bp,
        askPrice: again.body.quote.ap,
        previousClose: again.body.previous_close,
        price_timestamp: again.body.quote.t,
      });
    });

    it('gives a Treasury note a bond block whose dirty price is clean price plus accrued interest', async () => {
      const res = await get('/v1/market-data/assets/91282CLW9/quote');
      expect(res.status).toBe(200);
      const bond = res.body.bond;
      expect(Object.keys(bond)).toEqual([
        'clean_price',
        'dirty_price',
        'accrued_interest',
        'yield_to_maturity',
        'settlement_date',
        'next_coupon_date',
        'previous_coupon_date',
        'price_basis',
      ]);
      expect(bond.price_basis).toBe('percent_of_par');
      expect(bond.clean_price).toBe(res.body.trade.p);
      expect(new Decimal(bond.clean_price).plus(bond.accrued_interest).toNumber()).toBe(bond.dirty_price);
      // Independent check of the accrual: ACT/ACT, half the 4.25% coupon times days since the last coupon
      // over days in the period.
      const days = (a: string, b: string) => (Date.parse(b) - Date.parse(a)) / DAY_MS;
      const expected =
        (2.125 * days(bond.previous_coupon_date, bond.settlement_date)) /
        days(bond.previous_coupon_date, bond.next_coupon_date);
      expect(bond.accrued_interest).toBeCloseTo(expected, 6);
      expect(bond.next_coupon_date).toMatch(/-(05|11)-15$/);
      expect(bond.settlement_date > new Date().toISOString().slice(0, 10)).toBe(true);
      // The yield reproduces the clean price (yield shown to 4 decimals of a percent).
      const price = priceFromYield({
        settlement: bond.settlement_date,
        maturity: '2034-11-15',
        frequency: 2,
        couponRate: '0.0425',
        basis: 'ACT/ACT',
        yield: new Decimal(bond.yield_to_maturity).div(100),
      });
      expect(Math.abs(price.toNumber() - bond.clean_price)).toBeLessThan(0.001);
    });

    it('gives a bill zero accrued interest, so dirty equals clean', async () => {
      const res = await get('/v1/market-data/assets/912797WA1/quote');
      expect(res.body.bond).toMatchObject({
        accrued_interest: 0,
        next_coupon_date: null,
        previous_coupon_date: null,
      });
      expect(res.body.bond.dirty_price).toBe(res.body.bond.clean_price);
      expect(res.body.bond.clean_price).toBeLessThan(100);
    });

    it('an unknown symbol is 404', async () => {
      expectSvcError(await get('/v1/market-data/assets/NOPE/quote'), 'SVC-404-001', {
        message: "No such asset: 'NOPE'.",
      });
    });
  });

  describe('bars', () => {
    const bars = (query: string, symbol = 'AAPL') => get(`/v1/market-data/assets/${symbol}/bars?${query}`);

    it('gives one daily bar per trading day, skipping the holiday', async () => {
      const res = await bars('timeframe=1Day&start=2025-07-01&end=2025-07-08');
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual([
        'object',
        'livemode',
        'symbol',
        'asset_id',
        'timeframe',
        'currency',
        'bars',
        'next_page_token',
      ]);
      expect(res.body).toMatchObject({
        object: 'bars',
        symbol: 'AAPL',
        timeframe: '1Day',
        next_page_token: null,
      });
      expect(res.body.bars.map((b: { t: string }) => b.t)).toEqual([
        '2025-07-01T04:00:00.000Z',
        '2025-07-02T04:00:00.000Z',
        '2025-07-03T04:00:00.000Z',
        '2025-07-07T04:00:00.000Z',
        '2025-07-08T04:00:00.000Z',
      ]);
      for (const bar of res.body.bars) {
        expect(Object.keys(bar)).toEqual(['t', 'o', 'h', 'l', 'c', 'v', 'n', 'vw']);
        expect(bar.l).toBeLessThanOrEqual(Math.min(bar.o, bar.c));
        expect(bar.h).toBeGreaterThanOrEqual(Math.max(bar.o, bar.c));
        expect(bar.v).toBeGreaterThan(0);
      }
    });

    it('ends hourly bars at the 13:00 early close', async () => {
      const res = await bars('timeframe=1Hour&start=2025-07-03T00:00:00Z&end=2025-07-03T23:59:59Z');
      expect(res.body.bars.map((b: { t: string }) => b.t)).toEqual([
        '2025-07-03T13:00:00.000Z',
        '2025-07-03T14:00:00.000Z',
        '2025-07-03T15:00:00.000Z',
        '2025-07-03T16:00:00.000Z',
      ]);
      const minutes = await bars(
        'timeframe=1Min&start=2025-07-03T00:00:00Z&end=2025-07-03T23:59:59Z&limit=1000',
      );
      expect(minutes.body.bars).toHaveLength(210);
      expect(minutes.body.bars[0].t).toBe('2025-07-03T13:30:00.000Z');
      expect(minutes.body.bars[209].t).toBe('2025-07-03T16:59:00.000Z');
      // The last minute closes where the day closes.
      const daily = await bars('timeframe=1Day&start=2025-07-03&end=2025-07-03');
      expect(minutes.body.bars[209].c).toBe(daily.body.bars[0].c);
      expect(minutes.body.bars[0].o).toBe(daily.body.bars[0].o);
    });

    it('are reproducible and page with next_page_token', async () => {
      const all = await bars('timeframe=5Min&start=2025-07-07T13:30:00Z&end=2025-07-07T20:00:00Z&limit=100');
      expect(all.body.bars).toHaveLength(78);
      const again = await bars(
        'timeframe=5Min&start=2025-07-07T13:30:00Z&end=2025-07-07T20:00:00Z&limit=100',
      );
      expect(again.body.bars).toEqual(all.body.bars);
      const first = await bars('timeframe=5Min&start=2025-07-07T13:30:00Z&end=2025-07-07T20:00:00Z&limit=50');
      expect(first.body.next_page_token).toEqual(expect.any(String));
      const second = await bars(
        `timeframe=5Min&start=2025-07-07T13:30:00Z&end=2025-07-07T20:00:00Z&limit=50&page_token=${first.body.next_page_token}`,
      );
      expect(second.body.next_page_token).toBeNull();
      expect([...first.body.bars, ...second.body.bars]).toEqual(all.body.bars);
      const newest = await bars(
        'timeframe=5Min&start=2025-07-07T13:30:00Z&end=2025-07-07T20:00:00Z&limit=3&sort=desc',
      );
      expect(newest.body.bars).toEqual(all.body.bars.slice(-3).reverse());
    });

    it('bond bars are clean prices and page at most 100 at a time', async () => {
      const res = await bars('timeframe=1Hour&start=2026-09-01&end=2026-11-20&limit=1000', '91282CLW9');
      expect(res.body.bars).toHaveLength(100);
      expect(res.body.next_page_token).toEqual(expect.any(String));
      for (const bar of res.body.bars) {
        expect(bar.l).toBeLessThanOrEqual(Math.min(bar.o, bar.c));
        expect(bar.h).toBeGreaterThanOrEqual(Math.max(bar.o, bar.c));
        expect(bar.l).toBeGreaterThan(80);
        expect(bar.h).toBeLessThan(120);
      }
    });

    it('crypto trades every day', async () => {
      const res = await bars('timeframe=1Day&start=2025-07-04&end=2025-07-06', 'BTCUSD');
      expect(res.body.bars.map((b: { t: string }) => b.t)).toEqual([
        '2025-07-04T00:00:00.000Z',
        '2025-07-05T00:00:00.000Z',
        '2025-07-06T00:00:00.000Z',
      ]);
    });

    it.each([
      ['', 'SVC-400-002', 'timeframe'],
      ['timeframe=1Week', 'SVC-400-001', 'timeframe'],
      ['timeframe=1Day&limit=0', 'SVC-400-001', 'limit'],
      ['timeframe=1Day&limit=1001', 'SVC-400-001', 'limit'],
      ['timeframe=1Day&start=yesterday', 'SVC-400-001', 'start'],
      ['timeframe=1Day&start=2025-07-08&end=2025-07-01', 'SVC-400-001', 'start'],
      ['timeframe=1Day&page_token=bogus', 'SVC-400-001', 'page_token'],
    ] as const)('?%s answers %s naming %s', async (query, code, param) => {
      expectSvcError(await bars(query), code, { param });
    });
  });

  describe('snapshots', () => {
    it('gives each symbol, in order, its latest trade, quote and bars', async () => {
      const res = await get('/v1/market-data/snapshots?symbols=MSFT,BTC/USD,91282CLW9,MSFT');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ object: 'list', url: '/v1/market-data/snapshots', has_more: false });
      expect(res.body.data.map((s: { symbol: string }) => s.symbol)).toEqual([
        'MSFT',
        'BTC/USD',
        'T 4.25 11/15/34',
      ]);
      const [msft, btc, note] = res.body.data;
      expect(Object.keys(msft)).toEqual([
        'object',
        'livemode',
        'symbol',
        'asset_id',
        'class',
        'market',
        'currency',
        'session',
        'latest_trade',
        'latest_quote',
        'minute_bar',
        'daily_bar',
        'prev_daily_bar',
      ]);
      expect(msft.object).toBe('snapshot');
      expect(msft.daily_bar.t > msft.prev_daily_bar.t).toBe(true);
      expect(btc.session).toBe('regular');
      expect(note.bond.dirty_price).toBe(
        new Decimal(note.bond.clean_price).plus(note.bond.accrued_interest).toNumber(),
      );
    });

    it('names symbols when one is unknown or none is given', async () => {
      expectSvcError(await get('/v1/market-data/snapshots?symbols=AAPL,NOPE'), 'SVC-400-001', {
        param: 'symbols',
        message: 'Unknown symbol(s): NOPE.',
      });
      expectSvcError(await get('/v1/market-data/snapshots'), 'SVC-400-002', { param: 'symbols' });
      expectSvcError(await get('/v1/market-data/snapshots?symbols=,'), 'SVC-400-002', { param: 'symbols' });
    });
  });
});

const DAY_MS = 86_400_000;
