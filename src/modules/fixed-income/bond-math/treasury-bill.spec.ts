import Decimal from 'decimal.js';
import { Money } from 'src/core/money/money';
import {
  billBondEquivalentFromDiscount,
  billBondEquivalentYield,
  billDiscountFromPrice,
  billMoneyMarketYield,
  billPriceFromBondEquivalentYield,
  billPriceFromDiscount,
} from 'src/modules/fixed-income/bond-math/treasury-bill';

function near(actual: Decimal, expected: Decimal.Value, tolerance: Decimal.Value): void {
  const gap = actual.minus(expected).abs();
  if (gap.gt(tolerance)) {
    throw new Error(`${actual.toString()} is ${gap.toString()} from ${String(expected)}`);
  }
}

// Worked examples of the spreadsheet functions TBILLPRICE, TBILLEQ and TBILLYIELD (Microsoft support
// documentation): settlement 31 Mar 2008, maturity 1 Jun 2008 (62 days).
describe('published T-bill examples', () => {
  const term = { settlement: '2008-03-31', maturity: '2008-06-01' };

  it('TBILLPRICE: discount 9% -> 98.45', () => {
    near(billPriceFromDiscount({ ...term, discountRate: '0.09' }), '98.45', '1e-12');
  });

  it('TBILLEQ: discount 9.14% -> 0.094151 (9.4151%)', () => {
    near(billBondEquivalentFromDiscount({ ...term, discountRate: '0.0914' }), '0.094151', '5e-7');
  });

  it('TBILLYIELD: price 98.45 -> 0.091417 (9.1417%)', () => {
    near(billMoneyMarketYield({ ...term, price: '98.45' }), '0.091417', '5e-7');
  });
});

describe('bond-equivalent yield', () => {
  it('inverts the discount price', () => {
    const term = { settlement: '2025-01-02', maturity: '2025-04-03', price: '98.9' };
    near(billPriceFromDiscount({ ...term, discountRate: billDiscountFromPrice(term) }), '98.9', '1e-30');
  });

  it('uses the quadratic beyond half a year and round-trips', () => {
    for (const maturity of ['2025-07-03', '2025-07-04', '2025-12-31']) {
      const term = { settlement: '2025-01-02', maturity };
      const price = billPriceFromDiscount({ ...term, discountRate: '0.043' });
      const bey = billBondEquivalentYield({ ...term, price });
      near(billPriceFromBondEquivalentYield({ ...term, yield: bey }), price, '1e-25');
    }
  });

  /**
   * US Treasury bill auction results (high discount rate, price per 100 and coupon equivalent) as reported
   * by The Bond Buyer. Prices are published to six decimals, coupon equivalents to three (in percent).
   * - 3 Jul 2017 auction, issued 6 Jul 2017: 91-day 1.045% -> 99.735847, 1.062%; 182-day 1.130% ->
   *   99.428722, 1.152% (bondbuyer.com/news/weekly-t-bills-go-at-1045-1130-high-rates-on-july-3)
   * - one-year (364-day) bills 2.290% -> 97.684556, 2.363% (bondbuyer.com/issues/117_144/-292215-1.html);
   *   the report gives no dates, so any 364-day term over a 365-day year stands in.
   */
  it.each([
    ['2017-07-06', '2017-10-05', '0.01045', '99.735847', '0.01062'],
    ['2017-07-06', '2018-01-04', '0.0113', '99.428722', '0.01152'],
    ['2018-03-01', '2019-02-28', '0.0229', '97.684556', '0.02363'],
  ])('auction: %s to %s at %s', (settlement, maturity, discountRate, price, couponEquivalent) => {
    const term = { settlement, maturity, yearDays: 365 as const };
    near(billPriceFromDiscount({ ...term, discountRate }), price, '5e-7');
    near(billBondEquivalentYield({ ...term, price }), couponEquivalent, '5e-6');
    near(billBondEquivalentFromDiscount({ ...term, discountRate }), couponEquivalent, '5e-6');
  });

  it('counts a 366-day year when the year after settlement holds 29 February', () => {
    const term = { settlement: '2023-12-01', maturity: '2024-02-29', price: '99' };
    near(billBondEquivalentYield(term), new Money(1).div(99).times(366).div(90), '1e-30');
  });

  it('rejects a maturity more than a year out', () => {
    expect(() =>
      billPriceFromDiscount({ settlement: '2025-01-02', maturity: '2026-01-05', discountRate: '0.04' }),
    ).toThrow(expect.objectContaining({ param: 'maturity' }));
  });
});
