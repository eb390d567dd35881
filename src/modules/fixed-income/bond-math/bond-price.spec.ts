import Decimal from 'decimal.js';
import { Money } from 'src/core/money/money';
import { accruedInterest } from 'src/modules/fixed-income/bond-math/accrued-interest';
import { dirtyPrice, priceFromYield, yieldFromPrice } from 'src/modules/fixed-income/bond-math/bond-price';
import { AccrualBasis, CouponFrequency } from 'src/modules/fixed-income/bond-math/bond-types';

function near(actual: Decimal, expected: Decimal.Value, tolerance: Decimal.Value): void {
  const gap = actual.minus(expected).abs();
  if (gap.gt(tolerance)) {
    throw new Error(`${actual.toString()} is ${gap.toString()} from ${String(expected)}`);
  }
}

describe('spreadsheet PRICE and YIELD examples', () => {
  it('prices the PRICE documentation example', () => {
    // PRICE documentation (Microsoft support): settlement 15 Feb 2008, maturity 15 Nov 2017, rate 5.75%,
    // yld 6.5%, redemption 100, frequency 2, basis 0 -> 94.63436162.
    const price = priceFromYield({
      settlement: '2008-02-15',
      maturity: '2017-11-15',
      couponRate: '0.0575',
      yield: '0.065',
      redemption: 100,
      frequency: 2,
      basis: '30/360',
    });
    near(price, '94.63436162', '1e-8');
  });

  it('solves the YIELD documentation example', () => {
    // YIELD documentation (Microsoft support): settlement 15 Feb 2008, maturity 15 Nov 2016, rate 5.75%,
    // pr 95.04287, redemption 100, frequency 2, basis 0 -> 0.065 (6.50000%).
    const solved = yieldFromPrice({
      settlement: '2008-02-15',
      maturity: '2016-11-15',
      couponRate: '0.0575',
      price: '95.04287',
      frequency: 2,
      basis: '30/360',
    });
    near(solved, '0.065', '1e-8');
  });
});

/**
 * US Treasury auction results (high yield and the price per 100 Treasury announced), as reported by
 * The Bond Buyer:
 * - 3-year 1 3/8% notes, issued 15 Sep 2017, due 15 Sep 2020: 1.433% -> 99.830281
 *   (bondbuyer.com/news/treasury-3-year-notes-go-at-1433-high-yield-on-sept-11)
 * - 2 1/4% notes due 15 Aug 2027, reopened 15 Sep 2017: 2.180% -> 100.619500
 *   (bondbuyer.com/news/treasury-10-year-notes-go-at-2180-high-yield-on-sept-12)
 * - 2 1/4% notes due 15 Feb 2027, reopened 17 Apr 2017: 2.332% -> 99.280319
 *   (bondbuyer.com/news/treasury-10-year-notes-go-at-2332-high-yield-on-april-11)
 * - 3 5/8% notes due 15 Aug 2019, reopened 15 Sep 2009: 3.510% -> 100.951686
 *   (bondbuyer.com/news/treasury-10-year-notes-go-at-3510-high-yield-BB307222)
 * Treasury publishes prices to six decimals; they are checked to 1e-6 (the 2009 result is 6.3e-7 below
 * the unrounded formula value, the others within half a unit). Reopenings settle mid-period, where
 * Treasury discounts the broken period with simple interest (31 CFR 356 App. B).
 */
describe('US Treasury auction results', () => {
  const cases: [string, string, string, string, string][] = [
    ['2017-09-15', '2020-09-15', '0.01375', '0.01433', '99.830281'],
    ['2017-09-15', '2027-08-15', '0.0225', '0.0218', '100.619500'],
    ['2017-04-17', '2027-02-15', '0.0225', '0.02332', '99.280319'],
    ['2009-09-15', '2019-08-15', '0.03625', '0.0351', '100.951686'],
  ];

  it.each(cases)(
    'settling %s, due %s, coupon %s at %s prices %s',
    (settlement, maturity, couponRate, y, price) => {
      const bond = { settlement, maturity, couponRate, frequency: 2 as const, basis: 'ACT/ACT' as const };
      near(priceFromYield({ ...bond, yield: y, convention: 'treasury' }), price, '1e-6');
      near(yieldFromPrice({ ...bond, price, convention: 'treasury' }), y, '1e-8');
    },
  );

  it('agrees with the street convention when settlement is on a coupon date', () => {
    const bond = {
      settlement: '2017-09-15',
      maturity: '2020-09-15',
      couponRate: '0.01375',
      yield: '0.01433',
      frequency: 2 as const,
      basis: 'ACT/ACT' as const,
    };
    near(priceFromYield(bond), '99.830281', '5e-7');
  });
});

describe('final coupon period', () => {
  it('uses simple interest when one period or less remains', () => {
    // 5% semiannual due 15 Nov 2025, settlement 2 Jun 2025: 166 of 184 days to go.
    // (100 + 2.5) / (1 + 166/184 * 0.04/2) - 2.5 * 18/184
    const price = priceFromYield({
      settlement: '2025-06-02',
      maturity: '2025-11-15',
      couponRate: '0.05',
      yield: '0.04',
      frequency: 2,
      basis: 'ACT/ACT',
    });
    const expected = new Money(102.5)
      .div(new Money(166).div(184).times('0.02').plus(1))
      .minus(new Money(2.5).times(18).div(184));
    near(price, expected, '1e-20');
  });
});

describe('dirty price', () => {
  it('is the clean price plus accrued interest', () => {
    const bond = {
      settlement: '2008-02-15',
      maturity: '2017-11-15',
      couponRate: '0.0575',
      yield: '0.065',
      frequency: 2 as const,
      basis: '30/360' as const,
    };
    // Accrued: 2.875 x 90/180 = 1.4375.
    near(accruedInterest(bond), '1.4375', '1e-30');
    near(dirtyPrice(bond), priceFromYield(bond).plus('1.4375'), '1e-30');
  });
});

describe('zero coupon', () => {
  it('discounts over semiannual quasi-coupon periods', () => {
    // 10 years, settlement on a quasi-coupon date: 100 / 1.025^20.
    const price = priceFromYield({
      settlement: '2025-05-15',
      maturity: '2035-05-15',
      couponRate: 0,
      yield: '0.05',
      frequency: 0,
      basis: 'ACT/ACT',
    });
    near(price, new Money(100).div(new Money('1.025').pow(20)), '1e-25');
  });
});

describe('yield -> price -> yield round trips', () => {
  const bases: AccrualBasis[] = ['ACT/ACT', '30/360', 'ACT/360', 'ACT/365'];
  const frequencies: CouponFrequency[] = [0, 1, 2, 4, 12];
  const cases = bases.flatMap((basis) => frequencies.map((frequency) => [basis, frequency] as const));

  it.each(cases)('%s, frequency %i', (basis, frequency) => {
    for (const [settlement, maturity, y] of [
      ['2024-03-07', '2054-02-28', '0.0512'],
      ['2025-06-02', '2025-11-30', '0.0431'],
      ['2025-01-31', '2027-07-31', '-0.002'],
      ['2025-01-31', '2027-07-31', '0.35'],
    ]) {
      for (const convention of ['street', 'treasury'] as const) {
        const bond = { settlement, maturity, couponRate: '0.0437', frequency, basis, convention };
        const price = priceFromYield({ ...bond, yield: y });
        const solved = yieldFromPrice({ ...bond, price });
        near(solved, y, '1e-10');
        near(priceFromYield({ ...bond, yield: solved }), price, '1e-10');
      }
    }
  });
});

describe('validation', () => {
  const bond = {
    settlement: '2025-01-01',
    maturity: '2030-01-01',
    couponRate: '0.05',
    frequency: 2 as const,
  };

  it('names the parameter at fault', () => {
    expect(() => priceFromYield({ ...bond, basis: 'ACT/ACT', yield: 'abc' })).toThrow(
      expect.objectContaining({ param: 'yield' }),
    );
    expect(() => priceFromYield({ ...bond, basis: 'ACT/ACT', yield: '-2' })).toThrow(
      expect.objectContaining({ param: 'yield' }),
    );
    expect(() => yieldFromPrice({ ...bond, basis: 'ACT/ACT', price: '0' })).toThrow(
      expect.objectContaining({ param: 'price' }),
    );
    expect(() =>
      yieldFromPrice({ ...bond, basis: 'ACT/ACT', price: '100', convention: 'euro' as never }),
    ).toThrow(expect.objectContaining({ param: 'convention' }));
    expect(() => priceFromYield({ ...bond, basis: 'ACT/ACT', yield: '0.05', redemption: '-1' })).toThrow(
      expect.objectContaining({ param: 'redemption' }),
    );
  });
});
