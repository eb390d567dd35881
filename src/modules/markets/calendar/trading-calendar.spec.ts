import { ServiceError } from 'src/core/errors/service-error';
import { holidaysInYear, missingNyseRules } from 'src/modules/markets/calendar/exchange-holidays';
import { MARKETS, getMarket } from 'src/modules/markets/calendar/market-definitions';
import {
  addBusinessDays,
  calendar,
  isBusinessDay,
  tradingDay,
} from 'src/modules/markets/calendar/trading-calendar';

describe('market definitions', () => {
  it('lists every market with its currency, zone and hours', () => {
    expect(MARKETS.map((m) => m.code)).toEqual([
      'XNAS',
      'XNYS',
      'ARCA',
      'BATS',
      'OTC',
      'XNSA',
      'XNAI',
      'CRYPTO',
    ]);
    expect(getMarket('xnys')).toMatchObject({
      display_name: 'NYSE',
      country: 'US',
      timezone: 'America/New_York',
    });
    expect(getMarket('XNSA')).toMatchObject({
      display_name: 'NGX',
      currency: 'NGN',
      timezone: 'Africa/Lagos',
    });
    expect(getMarket('XNSA')?.sessions).toEqual({
      pre: null,
      regular: { start: '10:00', end: '14:30' },
      post: null,
    });
    expect(getMarket('XNAI')).toMatchObject({ display_name: 'NSE', currency: 'KES', country: 'KE' });
    expect(getMarket('crypto')).toMatchObject({ country: null, timezone: 'UTC', currency: 'USD' });
    expect(getMarket('XLON')).toBeUndefined();
  });
});

describe('NYSE holidays', () => {
  it('still finds every NYSE rule in the holiday library', () => {
    expect(missingNyseRules()).toEqual([]);
    expect(weekdayClosures(2024)).toHaveLength(10);
    expect(weekdayClosures(2023)).toHaveLength(10);
  });

  // NYSE's published holiday calendars (nyse.com/markets/hours-calendars) for these years.
  it('matches the published 2025, 2026 and 2027 calendars', () => {
    expect(weekdayClosures(2025)).toEqual([
      '2025-01-01',
      '2025-01-20',
      '2025-02-17',
      '2025-04-18',
      '2025-05-26',
      '2025-06-19',
      '2025-07-04',
      '2025-09-01',
      '2025-11-27',
      '2025-12-25',
    ]);
    expect(weekdayClosures(2026)).toEqual([
      '2026-01-01',
      '2026-01-19',
      '2026-02-16',
      '2026-04-03',
      '2026-05-25',
      '2026-06-19',
      '2026-07-03',
      '2026-09-07',
      '2026-11-26',
      '2026-12-25',
    ]);
    expect(weekdayClosures(2027)).toEqual([
      '2027-01-01',
      '2027-01-18',
      '2027-02-15',
      '2027-03-26',
      '2027-05-31',
      '2027-06-18',
      '2027-07-05',
      '2027-09-06',
      '2027-11-25',
      '2027-12-24',
    ]);
  });

  it('closes for Independence Day, Good Friday and Thanksgiving', () => {
    expect(tradingDay('XNYS', '2025-07-04')).toEqual({
      date: '2025-07-04',
      is_trading_day: false,
      holiday_name: 'Independence Day',
      early_close: false,
      pre_open: null,
      open: null,
      close: null,
      post_close: null,
    });
    expect(tradingDay('XNYS', '2025-04-18')).toMatchObject({
      is_trading_day: false,
      holiday_name: 'Good Friday',
    });
    expect(tradingDay('XNAS', '2026-11-26')).toMatchObject({
      is_trading_day: false,
      holiday_name: 'Thanksgiving Day',
    });
  });

  it('trades on Columbus Day and Veterans Day', () => {
    expect(tradingDay('XNYS', '2025-10-13')).toMatchObject({ is_trading_day: true, holiday_name: null });
    expect(tradingDay('XNYS', '2025-11-11')).toMatchObject({ is_trading_day: true, holiday_name: null });
  });

  it('does not close the Friday before a Saturday New Year', () => {
    // 2022-01-01 was a Saturday; NYSE Rule 7.2 keeps 2021-12-31 (year end) open.
    expect(tradingDay('XNYS', '2021-12-31')).toMatchObject({ is_trading_day: true, early_close: false });
    expect(tradingDay('XNYS', '2022-12-31')).toMatchObject({ is_trading_day: false, holiday_name: null });
    expect(weekdayClosures(2022)).toHaveLength(9);
  });

  it('observes Saturday holidays on Friday and Sunday holidays on Monday', () => {
    expect(tradingDay('XNYS', '2026-07-03')).toMatchObject({
      is_trading_day: false,
      holiday_name: 'Independence Day (observed)',
    });
    expect(tradingDay('XNYS', '2022-12-26')).toMatchObject({ holiday_name: 'Christmas Day (observed)' });
    expect(tradingDay('XNYS', '2021-12-24')).toMatchObject({ is_trading_day: false });
  });

  it('observes Juneteenth only from 2022', () => {
    expect(tradingDay('XNYS', '2021-06-18')).toMatchObject({ is_trading_day: true });
    expect(tradingDay('XNYS', '2022-06-20')).toMatchObject({ is_trading_day: false });
  });

  it('reports the holiday name on a weekend holiday', () => {
    expect(holidaysInYear('NYSE', 2026).get('2026-07-04')).toBe('Independence Day');
  });
});

describe('NYSE early closes', () => {
  it.each(['2025-11-28', '2025-12-24', '2025-07-03'])('closes %s at 13:00 ET', (date) => {
    expect(tradingDay('XNYS', date)).toEqual({
      date,
      is_trading_day: true,
      holiday_name: null,
      early_close: true,
      pre_open: `${date}T04:00:00${date.startsWith('2025-07') ? '-04:00' : '-05:00'}`,
      open: `${date}T09:30:00${date.startsWith('2025-07') ? '-04:00' : '-05:00'}`,
      close: `${date}T13:00:00${date.startsWith('2025-07') ? '-04:00' : '-05:00'}`,
      post_close: `${date}T17:00:00${date.startsWith('2025-07') ? '-04:00' : '-05:00'}`,
    });
  });

  it('has no early close when 3 July or 24 December is not an ordinary weekday', () => {
    // 4 July 2026 is a Saturday: 3 July is the holiday and 2 July is a full day.
    expect(tradingDay('XNYS', '2026-07-02')).toMatchObject({
      early_close: false,
      close: '2026-07-02T16:00:00-04:00',
    });
    // 4 July 2021 was a Sunday (observed Monday 5 July): Friday 2 July was a full day.
    expect(tradingDay('XNYS', '2021-07-02')).toMatchObject({ early_close: false });
    expect(tradingDay('XNYS', '2027-12-24')).toMatchObject({ is_trading_day: false, early_close: false });
  });

  it('keeps regular hours on an ordinary day', () => {
    expect(tradingDay('BATS', '2025-01-15')).toMatchObject({
      early_close: false,
      pre_open: '2025-01-15T04:00:00-05:00',
      open: '2025-01-15T09:30:00-05:00',
      close: '2025-01-15T16:00:00-05:00',
      post_close: '2025-01-15T20:00:00-05:00',
    });
  });
});

describe('Nigeria, Kenya and crypto', () => {
  it('closes NGX on Nigerian public holidays', () => {
    expect(tradingDay('XNSA', '2025-10-01')).toMatchObject({
      is_trading_day: false,
      holiday_name: 'Independence Day',
    });
    expect(tradingDay('XNSA', '2025-10-02')).toEqual({
      date: '2025-10-02',
      is_trading_day: true,
      holiday_name: null,
      early_close: false,
      pre_open: null,
      open: '2025-10-02T10:00:00+01:00',
      close: '2025-10-02T14:30:00+01:00',
      post_close: null,
    });
  });

  it("trades on Nigeria's Children's Day, a school-only holiday", () => {
    expect(tradingDay('XNSA', '2025-05-27')).toMatchObject({ is_trading_day: true });
  });

  it('closes the NSE on Kenyan public holidays', () => {
    expect(tradingDay('XNAI', '2025-10-20')).toMatchObject({
      is_trading_day: false,
      holiday_name: 'Mashujaa Day',
    });
    expect(tradingDay('XNAI', '2025-12-12')).toMatchObject({
      is_trading_day: false,
      holiday_name: 'Jamhuri Day',
    });
    expect(tradingDay('XNAI', '2025-10-21')).toMatchObject({
      open: '2025-10-21T09:00:00+03:00',
      close: '2025-10-21T15:00:00+03:00',
    });
  });

  it('trades crypto every day, holidays and weekends included', () => {
    expect(tradingDay('CRYPTO', '2025-12-25')).toMatchObject({
      is_trading_day: true,
      open: '2025-12-25T00:00:00Z',
      close: '2025-12-26T00:00:00Z',
    });
    expect(calendar('CRYPTO', '2025-01-01', '2025-12-31')).toHaveLength(365);
  });
});

describe('calendar', () => {
  it('lists trading days only, both ends inclusive', () => {
    const days = calendar('XNYS', '2025-07-01', '2025-07-08');
    expect(days.map((d) => d.date)).toEqual([
      '2025-07-01',
      '2025-07-02',
      '2025-07-03',
      '2025-07-07',
      '2025-07-08',
    ]);
    expect(days[2].early_close).toBe(true);
  });

  it('allows a full leap year and nothing longer', () => {
    expect(calendar('XNYS', '2024-01-01', '2024-12-31')).toHaveLength(252);
    expect(thrown(() => calendar('XNYS', '2024-01-01', '2025-01-01')).param).toBe('end');
  });

  it('rejects bad ranges and dates naming the parameter', () => {
    const reversed = thrown(() => calendar('XNYS', '2025-02-01', '2025-01-01'));
    expect(reversed.param).toBe('start');
    expect(reversed.status).toBe(400);
    expect(thrown(() => calendar('XNYS', '2025-02-30', '2025-03-01')).param).toBe('start');
    expect(thrown(() => calendar('XNYS', '2025-01-01', '01/02/2025')).param).toBe('end');
    expect(thrown(() => tradingDay('XNYS', '2025-1-1')).param).toBe('date');
  });

  it('answers an unknown market with not found', () => {
    expect(thrown(() => tradingDay('XLON', '2025-01-02')).status).toBe(404);
  });

  it('reads a Date as the local date of the market', () => {
    // 02:00 UTC on 5 July is still 4 July in New York.
    expect(tradingDay('XNYS', new Date('2025-07-05T02:00:00Z')).date).toBe('2025-07-04');
  });
});

describe('business days', () => {
  it('skips weekends and holidays', () => {
    expect(isBusinessDay('XNYS', '2025-07-04')).toBe(false);
    expect(isBusinessDay('XNYS', '2025-07-05')).toBe(false);
    expect(isBusinessDay('XNYS', '2025-07-03')).toBe(true);
    expect(addBusinessDays('XNYS', '2025-03-07', 1)).toBe('2025-03-10');
    expect(addBusinessDays('XNYS', '2025-07-03', 1)).toBe('2025-07-07');
    expect(addBusinessDays('XNYS', '2025-07-02', 2)).toBe('2025-07-07');
    expect(addBusinessDays('XNYS', '2025-12-23', 2)).toBe('2025-12-26');
    expect(addBusinessDays('XNYS', '2025-07-07', -1)).toBe('2025-07-03');
    expect(addBusinessDays('XNYS', '2025-07-04', 0)).toBe('2025-07-04');
    expect(addBusinessDays('XNSA', '2025-09-30', 1)).toBe('2025-10-02');
  });

  it('rejects a fractional day count', () => {
    expect(thrown(() => addBusinessDays('XNYS', '2025-07-07', 1.5)).param).toBe('days');
  });
});

function thrown(fn: () => unknown): ServiceError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ServiceError);
    return error as ServiceError;
  }
  throw new Error('expected a ServiceError');
}

/** Weekday closures, the way exchanges publish their holiday calendars. */
function weekdayClosures(year: number): string[] {
  return calendarDays(year).filter((date) => {
    const weekday = new Date(`${date}T12:00:00Z`).getUTCDay();
    return weekday !== 0 && weekday !== 6 && !isBusinessDay('XNYS', date);
  });
}

function calendarDays(year: number): string[] {
  const days: string[] = [];
  for (let t = Date.UTC(year, 0, 1); t < Date.UTC(year + 1, 0, 1); t += 86_400_000) {
    days.push(new Date(t).toISOString().slice(0, 10));
  }
  return days;
}
