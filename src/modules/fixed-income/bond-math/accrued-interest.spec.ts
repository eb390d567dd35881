import { accruedInterest } from 'src/modules/fixed-income/bond-math/accrued-interest';

describe('accrued interest per 100 face', () => {
  it('matches the published ACCRINT example', () => {
    // Spreadsheet ACCRINT documentation (Microsoft support): issue 1 Mar 2008, first interest 31 Aug 2008,
    // settlement 1 May 2008, rate 10%, par 1,000, semiannual, basis 0 -> 16.666667.
    // Maturity is not an ACCRINT argument; any end-of-month maturity on the same schedule gives these dates.
    const perHundred = accruedInterest({
      settlement: '2008-05-01',
      maturity: '2018-08-31',
      issueDate: '2008-03-01',
      firstCouponDate: '2008-08-31',
      couponRate: '0.1',
      frequency: 2,
      basis: '30/360',
    });
    expect(perHundred.times(10).minus('16.666667').abs().lt('1e-6')).toBe(true);
  });

  it('accrues ACT/ACT over the actual days of the period, as Treasury accrued interest', () => {
    // 31 CFR 356 Appendix B, I.A.2: accrued interest = coupon x days accrued / days in the half-year.
    // 2 1/4% note, interest from 15 Aug 2017, settlement 15 Sep 2017: 1.125 x 31 / 184.
    const accrued = accruedInterest({
      settlement: '2017-09-15',
      maturity: '2027-08-15',
      couponRate: '0.0225',
      frequency: 2,
      basis: 'ACT/ACT',
    });
    expect(accrued.toFixed(12)).toBe('0.189538043478');
  });

  it('uses a 360-day year for ACT/360 and 30-day months for 30/360', () => {
    const bond = {
      settlement: '2025-03-31',
      maturity: '2030-01-31',
      couponRate: '0.06',
      frequency: 2 as const,
    };
    // Previous coupon 31 Jan 2025 (end-of-month schedule): 59 actual days, 60 in 30/360.
    expect(accruedInterest({ ...bond, basis: 'ACT/360' }).toFixed(10)).toBe('0.9833333333'); // 3 x 59/180
    expect(accruedInterest({ ...bond, basis: '30/360' }).toFixed(10)).toBe('1.0000000000'); // 3 x 60/180
    expect(accruedInterest({ ...bond, basis: 'ACT/365' }).toFixed(10)).toBe('0.9698630137'); // 3 x 59/182.5
  });

  it('accrues a short first period from the dated date', () => {
    // Dated 1 Apr 2025, first coupon 15 Jul 2025 (regular period 15 Jan - 15 Jul, 181 days).
    const accrued = accruedInterest({
      settlement: '2025-05-01',
      maturity: '2035-07-15',
      datedDate: '2025-04-01',
      couponRate: '0.05',
      frequency: 2,
      basis: 'ACT/ACT',
    });
    expect(accrued.toFixed(12)).toBe('0.414364640884'); // 2.5 x 30/181
  });

  it('is zero on a coupon date and for zero coupons', () => {
    const bond = { maturity: '2030-05-15', couponRate: '0.04', basis: 'ACT/ACT' as const };
    expect(accruedInterest({ ...bond, settlement: '2025-05-15', frequency: 2 }).isZero()).toBe(true);
    expect(accruedInterest({ ...bond, settlement: '2025-06-15', frequency: 0 }).isZero()).toBe(true);
  });

  it('rejects a negative coupon naming the parameter', () => {
    expect(() =>
      accruedInterest({
        settlement: '2025-06-15',
        maturity: '2030-05-15',
        couponRate: '-0.01',
        frequency: 2,
        basis: 'ACT/ACT',
      }),
    ).toThrow(expect.objectContaining({ param: 'couponRate' }));
  });
});
