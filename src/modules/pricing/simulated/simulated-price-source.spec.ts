import { BondValuation } from 'src/modules/pricing/bond-valuation';
import type { PricedAsset } from 'src/modules/pricing/price-source';
import { SimulatedPriceSource } from 'src/modules/pricing/simulated/simulated-price-source';

describe('SimulatedPriceSource', () => {
  it('is reproducible: the same seed gives the same quotes and bars in a fresh instance', () => {
    const times = ['2025-07-07T14:31:00Z', '2025-07-07T17:45:30Z', '2025-07-12T12:00:00Z'];
    for (const time of times) {
      expect(plain(source().quoteAt(equity, at(time)))).toEqual(plain(source().quoteAt(equity, at(time))));
    }
    const query = {
      timeframe: '5Min' as const,
      start: at('2025-07-07T13:30:00Z'),
      end: at('2025-07-07T20:00:00Z'),
      limit: 100,
      sort: 'asc' as const,
      asOf: at('2025-07-08T00:00:00Z'),
    };
    expect(plain(source().barsFor(equity, query))).toEqual(plain(source().barsFor(equity, query)));
  });

  it('gives another seed or another asset another walk', () => {
    const time = at('2025-07-07T17:45:00Z');
    expect(source('seed-a').quoteAt(equity, time).last.eq(source('seed-b').quoteAt(equity, time).last)).toBe(
      false,
    );
    const twin = { ...equity, id: 'equity-2' };
    expect(source().quoteAt(equity, time).last.eq(source().quoteAt(twin, time).last)).toBe(false);
  });

  it('moves minute by minute during the session, stamped at the start of each minute', () => {
    const s = source();
    const prices = Array.from({ length: 30 }, (_, i) =>
      s.quoteAt(equity, new Date(Date.parse('2025-07-07T15:00:00Z') + i * 60_000)).last.toString(),
    );
    expect(new Set(prices).size).toBeGreaterThan(10);
    const quote = s.quoteAt(equity, at('2025-07-07T15:00:42Z'));
    expect(quote.timestamp.toISOString()).toBe('2025-07-07T15:00:00.000Z');
    expect(quote.session).toBe('regular');
  });

  it('holds the close while the market is shut: after hours, weekends and holidays', () => {
    const s = source();
    // 3 July 2025 closed early at 13:00 New York (17:00 UTC); 4 July was a holiday, then a weekend.
    const close = s.quoteAt(equity, at('2025-07-03T17:00:00Z'));
    for (const time of [
      '2025-07-03T19:00:00Z',
      '2025-07-04T15:00:00Z',
      '2025-07-05T15:00:00Z',
      '2025-07-07T13:00:00Z',
    ]) {
      const quote = s.quoteAt(equity, at(time));
      expect(quote.last.toString()).toBe(close.last.toString());
      expect(quote.timestamp.toISOString()).toBe('2025-07-03T17:00:00.000Z');
      expect(quote.sessionDate).toBe('2025-07-03');
    }
    expect(s.quoteAt(equity, at('2025-07-04T15:00:00Z')).session).toBe('closed');
    expect(s.quoteAt(equity, at('2025-07-07T12:00:00Z')).session).toBe('pre');
    // The next session's previous close is that close.
    const monday = s.quoteAt(equity, at('2025-07-07T15:00:00Z'));
    expect(monday.previousClose.toString()).toBe(close.last.toString());
    expect(monday.previousCloseDate).toBe('2025-07-03');
  });

  it('keeps bid below and ask above the last price, at the quoting precision', () => {
    const s = source();
    for (let minute = 0; minute < 390; minute += 13) {
      const quote = s.quoteAt(equity, new Date(Date.parse('2025-07-07T13:30:00Z') + minute * 60_000));
      expect(quote.bid.lt(quote.last)).toBe(true);
      expect(quote.ask.gt(quote.last)).toBe(true);
      expect(quote.last.decimalPlaces()).toBeLessThanOrEqual(2);
      expect(quote.bidSize.gt(0) && quote.askSize.gt(0)).toBe(true);
    }
    const coin = s.quoteAt(crypto, at('2025-07-05T10:00:00Z'));
    expect(coin.last.precision(true)).toBeLessThanOrEqual(8);
  });

  it('stays near its reference over years (the walk pulls back towards it)', () => {
    const s = source();
    for (let year = 2020; year <= 2030; year++) {
      const last = s.quoteAt(equity, at(`${year}-06-15T15:00:00Z`)).last.toNumber();
      expect(last).toBeGreaterThan(230 / 2);
      expect(last).toBeLessThan(230 * 2);
    }
  });

  it('moves crypto on weekends too', () => {
    const s = source();
    const saturday = s.quoteAt(crypto, at('2025-07-05T10:00:00Z'));
    const sunday = s.quoteAt(crypto, at('2025-07-06T10:00:00Z'));
    expect(saturday.session).toBe('regular');
    expect(saturday.last.eq(sunday.last)).toBe(false);
    expect(sunday.previousCloseDate).toBe('2025-07-05');
  });

  it('builds bars from the same path as quotes', () => {
    const s = source();
    const asOf = at('2025-07-08T00:00:00Z');
    const day = {
      start: at('2025-07-07T00:00:00Z'),
      end: at('2025-07-07T23:59:00Z'),
      sort: 'asc' as const,
      asOf,
    };
    const [daily] = s.barsFor(equity, { ...day, timeframe: '1Day', limit: 10 }).bars;
    const minutes = s.barsFor(equity, { ...day, timeframe: '1Min', limit: 1000 }).bars;
    const fives = s.barsFor(equity, { ...day, timeframe: '5Min', limit: 1000 }).bars;
    expect(minutes).toHaveLength(390);
    expect(fives).toHaveLength(78);
    // The day closes at the quote after the close and opens where the first minute opens.
    expect(daily.c.toString()).toBe(s.quoteAt(equity, at('2025-07-07T21:00:00Z')).last.toString());
    expect(daily.o.toString()).toBe(minutes[0].o.toString());
    // A minute bar closes at the price quoted at the end of that minute.
    expect(minutes[99].c.toString()).toBe(s.quoteAt(equity, new Date(minutes[100].t)).last.toString());
    // Five-minute bars aggregate their minutes exactly.
    for (let i = 0; i < fives.length; i += 7) {
      const parts = minutes.slice(i * 5, i * 5 + 5);
      expect(fives[i].o.toString()).toBe(parts[0].o.toString());
      expect(fives[i].c.toString()).toBe(parts[4].c.toString());
      expect(fives[i].h.toNumber()).toBe(Math.max(...parts.map((p) => p.h.toNumber())));
      expect(fives[i].l.toNumber()).toBe(Math.min(...parts.map((p) => p.l.toNumber())));
      expect(fives[i].v.toNumber()).toBe(parts.reduce((sum, p) => sum + p.v.toNumber(), 0));
    }
    expect(daily.v.toNumber()).toBe(minutes.reduce((sum, p) => sum + p.v.toNumber(), 0));
  });

  it('does not make bars of the future, and a bar in progress covers the minutes so far', () => {
    const s = source();
    const page = s.barsFor(equity, {
      timeframe: '1Hour',
      start: at('2025-07-07T00:00:00Z'),
      end: at('2025-07-08T00:00:00Z'),
      limit: 100,
      sort: 'asc',
      asOf: at('2025-07-07T15:20:00Z'),
    });
    expect(page.bars.map((b) => b.t.toISOString())).toEqual([
      '2025-07-07T13:00:00.000Z',
      '2025-07-07T14:00:00.000Z',
      '2025-07-07T15:00:00.000Z',
    ]);
    expect(page.bars[2].c.toString()).toBe(s.quoteAt(equity, at('2025-07-07T15:20:00Z')).last.toString());
  });

  it('prices a bill from a walking yield, pulling it to par as maturity nears', () => {
    const s = source();
    const early = s.quoteAt(bill, at('2026-06-15T15:00:00Z'));
    const late = s.quoteAt(bill, at('2026-12-18T15:00:00Z'));
    expect(early.yield?.toNumber()).toBeGreaterThan(0);
    expect(early.last.toNumber()).toBeLessThan(99);
    expect(late.last.toNumber()).toBeGreaterThan(99.9);
    expect(late.last.toNumber()).toBeLessThan(100);
    // After maturity it is worth par.
    expect(s.quoteAt(bill, at('2027-01-15T15:00:00Z')).last.toString()).toBe('100');
  });
});

const equity: PricedAsset = {
  id: 'equity-1',
  assetClass: 'equity',
  market: 'XNAS',
  referencePrice: '230.00',
  bond: null,
};
const crypto: PricedAsset = {
  id: 'crypto-1',
  assetClass: 'cryptocurrency',
  market: 'CRYPTO',
  referencePrice: '91842.50',
  bond: null,
};
const bill: PricedAsset = {
  id: '912797TC1',
  assetClass: 'bill',
  market: 'OTC',
  referencePrice: '99.6749',
  bond: {
    maturityDate: '2026-12-24',
    issueDate: '2025-12-26',
    datedDate: '2025-12-26',
    firstCouponDate: null,
    couponRate: '0',
    couponFrequency: 0,
    accrualBasis: 'ACT/360',
    settlementPeriod: 1,
    referencePriceDate: '2026-11-20',
    bondType: 'treasury',
    perpetual: false,
    nextCallDate: null,
    nextCallPrice: null,
  },
};

const at = (iso: string) => new Date(iso);
const source = (seed = 'seed-a') => new SimulatedPriceSource(seed, new BondValuation());
const plain = (value: object) => JSON.parse(JSON.stringify(value));
