import {
  couponDates,
  nextCouponDate,
  previousCouponDate,
  remainingCoupons,
} from 'src/modules/fixed-income/bond-math/coupon-schedule';
import { dayCount } from 'src/modules/fixed-income/bond-math/day-count';

describe('coupon schedule', () => {
  // Worked examples of the spreadsheet functions COUPPCD, COUPNCD, COUPNUM, COUPDAYBS, COUPDAYS and
  // COUPDAYSNC (Microsoft support documentation): settlement 25 Jan 2011, maturity 15 Nov 2011, semiannual.
  it('matches the published COUP* examples', () => {
    const bond = { maturity: '2011-11-15', frequency: 2 as const };
    expect(previousCouponDate('2011-01-25', bond)).toBe('2010-11-15'); // COUPPCD
    expect(nextCouponDate('2011-01-25', bond)).toBe('2011-05-15'); // COUPNCD
    expect(dayCount('ACT/ACT', '2010-11-15', '2011-01-25')).toBe(71); // COUPDAYBS
    expect(dayCount('ACT/ACT', '2010-11-15', '2011-05-15')).toBe(181); // COUPDAYS
    expect(dayCount('ACT/ACT', '2011-01-25', '2011-05-15')).toBe(110); // COUPDAYSNC
    // COUPNUM: settlement 25 Jan 2007, maturity 15 Nov 2008 -> 4.
    expect(remainingCoupons('2007-01-25', { maturity: '2008-11-15', frequency: 2 })).toBe(4);
  });

  it('keeps coupons on month ends when maturity is a month end', () => {
    // 31 CFR 356 Appendix B, Table 1: a last-day-of-month period August to February runs 181 days,
    // 182 in a leap year.
    const bond = { maturity: '2025-02-28', frequency: 2 as const };
    expect(couponDates('2023-09-01', bond)).toEqual(['2024-02-29', '2024-08-31', '2025-02-28']);
    expect(previousCouponDate('2023-09-01', bond)).toBe('2023-08-31');
    expect(dayCount('ACT/ACT', '2023-08-31', '2024-02-29')).toBe(182);
    expect(dayCount('ACT/ACT', '2024-08-31', '2025-02-28')).toBe(181);
  });

  it('does not drift a day-31 maturity through shorter months', () => {
    expect(couponDates('2024-12-01', { maturity: '2025-12-31', frequency: 4 })).toEqual([
      '2024-12-31',
      '2025-03-31',
      '2025-06-30',
      '2025-09-30',
      '2025-12-31',
    ]);
    expect(couponDates('2025-01-20', { maturity: '2025-05-30', frequency: 12 })).toEqual([
      '2025-01-30',
      '2025-02-28',
      '2025-03-30',
      '2025-04-30',
      '2025-05-30',
    ]);
  });

  it('treats a coupon on the settlement date as already paid', () => {
    const bond = { maturity: '2030-05-15', frequency: 2 as const };
    expect(previousCouponDate('2025-05-15', bond)).toBe('2025-05-15');
    expect(nextCouponDate('2025-05-15', bond)).toBe('2025-11-15');
    expect(remainingCoupons('2025-05-15', bond)).toBe(10);
  });

  it('starts from the issue date and first coupon in the first period', () => {
    const bond = {
      maturity: '2018-08-31',
      frequency: 2 as const,
      issueDate: '2008-03-01',
      firstCouponDate: '2008-08-31',
    };
    expect(previousCouponDate('2008-05-01', bond)).toBe('2008-03-01');
    expect(nextCouponDate('2008-05-01', bond)).toBe('2008-08-31');
    expect(remainingCoupons('2008-05-01', bond)).toBe(21);
    // A long first coupon: nothing is paid on the regular date before firstCouponDate.
    const long = {
      maturity: '2030-06-15',
      frequency: 2 as const,
      issueDate: '2025-01-10',
      firstCouponDate: '2025-12-15',
    };
    expect(nextCouponDate('2025-03-01', long)).toBe('2025-12-15');
    expect(previousCouponDate('2025-07-01', long)).toBe('2025-01-10');
  });

  it('has no coupon dates for a zero coupon', () => {
    const zero = { maturity: '2030-05-15', frequency: 0 as const };
    expect(previousCouponDate('2025-06-01', zero)).toBeNull();
    expect(nextCouponDate('2025-06-01', zero)).toBeNull();
    expect(remainingCoupons('2025-06-01', zero)).toBe(0);
  });

  it('rejects inconsistent inputs naming the parameter', () => {
    const bond = { maturity: '2030-05-15', frequency: 2 as const };
    expect(() => nextCouponDate('2030-05-15', bond)).toThrow(
      expect.objectContaining({ param: 'settlement' }),
    );
    expect(() => nextCouponDate('2025-01-01', { ...bond, frequency: 3 as never })).toThrow(
      expect.objectContaining({ param: 'frequency' }),
    );
    expect(() => nextCouponDate('2025-01-01', { ...bond, firstCouponDate: '2025-06-01' })).toThrow(
      expect.objectContaining({ param: 'firstCouponDate' }),
    );
    expect(() => nextCouponDate('2025-01-01', { ...bond, issueDate: '2025-03-01' })).toThrow(
      expect.objectContaining({ param: 'settlement' }),
    );
    expect(() => nextCouponDate('2025-02-30', bond)).toThrow(
      expect.objectContaining({ param: 'settlement' }),
    );
  });
});
