import { ServiceError } from 'src/core/errors/service-error';
import type { AccrualBasis } from 'src/modules/fixed-income/bond-math/bond-types';
import {
  accrualDays,
  dayCount,
  periodLength,
  yearFraction,
} from 'src/modules/fixed-income/bond-math/day-count';
import { parseCalendarDate } from 'src/modules/markets/calendar/calendar-date';

describe('30/360 US (NASD, spreadsheet basis 0)', () => {
  it.each([
    ['2011-01-30', '2011-12-31', 330], // start 30 and end 31: end becomes 30
    ['2011-01-15', '2011-01-31', 16], // end 31 kept when start is before the 30th
    ['2011-01-31', '2011-02-28', 28], // start 31 becomes 30
    ['2007-02-28', '2007-03-31', 30], // start last of February becomes 30, then end 31 becomes 30
    ['2007-02-28', '2008-02-29', 360], // both last of February: both become 30
    ['2008-02-29', '2008-08-31', 180], // end-of-month coupon period is a full half-year
    ['2008-03-01', '2008-05-01', 60],
    ['2008-02-15', '2008-05-15', 90],
  ])('%s to %s is %i days', (start, end, days) => {
    expect(dayCount('30/360', start, end)).toBe(days);
  });
});

describe('actual day counts', () => {
  it('counts calendar days for ACT bases', () => {
    expect(dayCount('ACT/360', '2024-01-31', '2024-03-01')).toBe(30);
    expect(dayCount('ACT/ACT', '2023-08-31', '2024-02-29')).toBe(182);
  });

  it('divides by 360 and 365', () => {
    expect(yearFraction('ACT/360', '2025-01-01', '2025-07-01').toFixed(12)).toBe('0.502777777778'); // 181/360
    expect(yearFraction('ACT/365', '2024-01-01', '2025-01-01').toFixed(12)).toBe('1.002739726027'); // 366/365
    expect(yearFraction('30/360', '2025-01-31', '2025-07-31').toFixed(12)).toBe('0.500000000000');
  });
});

/**
 * ACT/ACT (ICMA) cases from ISDA, "EMU and Market Conventions: Recent Developments" (1998), section on
 * the Actual/Actual conventions: the ICMA (ISMA) column of its worked examples.
 */
describe('ACT/ACT ICMA', () => {
  it('gives exactly half a year for a regular semiannual period', () => {
    // Regular period 1 Nov 2003 - 1 May 2004: ICMA 0.5 (ISDA would be 0.49772438).
    expect(
      yearFraction('ACT/ACT', '2003-11-01', '2004-05-01', {
        maturity: '2004-05-01',
        frequency: 2,
      }).toString(),
    ).toBe('0.5');
  });

  it('measures a short first period against the annual period it belongs to', () => {
    // 1 Feb 1999 - 1 Jul 1999, annual coupons: 150 / 365 = 0.41095890.
    const fraction = yearFraction('ACT/ACT', '1999-02-01', '1999-07-01', {
      maturity: '1999-07-01',
      frequency: 1,
    });
    expect(fraction.toFixed(8)).toBe('0.41095890');
  });

  it('splits a long first period into its quasi-coupon periods', () => {
    // 15 Aug 2002 - 15 Jul 2003, semiannual: 153/(2*184) + 181/(2*181) = 0.91576087.
    const fraction = yearFraction('ACT/ACT', '2002-08-15', '2003-07-15', {
      maturity: '2003-07-15',
      frequency: 2,
    });
    expect(fraction.toFixed(8)).toBe('0.91576087');
  });

  it('needs the coupon schedule', () => {
    expect(() => yearFraction('ACT/ACT', '2003-11-01', '2004-05-01')).toThrow(ServiceError);
  });

  it('rejects an unknown basis naming the parameter', () => {
    expect(() => dayCount('30E/360' as never, '2003-11-01', '2004-05-01')).toThrow(
      expect.objectContaining({ param: 'basis' }),
    );
  });
});

describe('an unknown basis', () => {
  // A basis outside the union (bad stored data, a cast) is refused, never counted as 30/360.
  const unknown = '30E/360' as AccrualBasis;
  const start = parseCalendarDate('2025-01-31', 'start');
  const end = parseCalendarDate('2025-07-31', 'end');

  it('is refused by the period length and the accrual days', () => {
    expect(() => periodLength(unknown, start, end, 2)).toThrow('Unexpected accrual basis: 30E/360');
    expect(() => accrualDays(unknown, start, end)).toThrow('Unexpected accrual basis: 30E/360');
  });

  it('leaves the known bases their period lengths', () => {
    expect(periodLength('30/360', start, end, 2).toFixed()).toBe('180');
    expect(periodLength('ACT/360', start, end, 2).toFixed()).toBe('180');
    expect(periodLength('ACT/365', start, end, 2).toFixed()).toBe('182.5');
    expect(periodLength('ACT/ACT', start, end, 2).toFixed()).toBe('181');
  });
});
