import { Money } from 'src/core/money/money';
import { BondValuation } from 'src/modules/pricing/bond-valuation';
import type { BondTerms, PricedAsset } from 'src/modules/pricing/price-source';

describe('BondValuation', () => {
  const valuation = new BondValuation();

  it('settles T+1 business days on the market calendar', () => {
    expect(valuation.settlement(note, '2025-07-03')).toBe('2025-07-07'); // over the 4 July holiday and a weekend
    expect(valuation.settlement(note, '2026-11-22')).toBe('2026-11-24'); // a Sunday trade books on Monday
  });

  it('values a note: dirty = clean + accrued, accrued from the last coupon, yield reproducing the price', () => {
    const value = valuation.value(note, new Money('99.5'), '2025-07-03');
    expect(value.settlementDate).toBe('2025-07-07');
    expect(value.previousCouponDate).toBe('2025-05-15');
    expect(value.nextCouponDate).toBe('2025-11-15');
    // 53 of 184 days of a 2.125 half-year coupon.
    expect(value.accruedInterest.toFixed(10)).toBe(new Money('2.125').times(53).div(184).toFixed(10));
    expect(value.dirtyPrice.eq(value.cleanPrice.plus(value.accruedInterest))).toBe(true);
    const ytm = value.yieldToMaturity as Money;
    expect(ytm.toNumber()).toBeGreaterThan(0.0425); // below par: yield above the coupon
    expect(valuation.cleanFromYield(note, ytm, '2025-07-07').minus('99.5').abs().lt('1e-9')).toBe(true);
  });

  it('accrues nothing and yields nothing once matured, and nothing before the issue date', () => {
    const matured = valuation.value(note, new Money(100), '2034-11-20');
    expect(matured).toMatchObject({ matured: true, yieldToMaturity: null, nextCouponDate: null });
    expect(matured.accruedInterest.isZero()).toBe(true);
    expect(valuation.accrued(note, '2024-11-01').isZero()).toBe(true);
  });

  it('uses the bond-equivalent yield for bills', () => {
    const bill: PricedAsset = {
      id: '912797TC1',
      assetClass: 'bill',
      market: 'OTC',
      referencePrice: '99',
      bond: {
        ...terms,
        maturityDate: '2026-12-24',
        couponRate: '0',
        couponFrequency: 0,
        accrualBasis: 'ACT/360',
        firstCouponDate: null,
      },
    };
    const value = valuation.value(bill, new Money('99'), '2026-06-24');
    // 182 days to maturity from settlement on 25 June 2026: (100 / 99 - 1) * 365 / 182.
    expect(value.settlementDate).toBe('2026-06-25');
    expect(value.yieldToMaturity?.toFixed(12)).toBe(
      new Money(100).div(99).minus(1).times(365).div(182).toFixed(12),
    );
    expect(value.accruedInterest.isZero()).toBe(true);
  });
});

const terms: BondTerms = {
  maturityDate: '2034-11-15',
  issueDate: '2024-11-15',
  datedDate: '2024-11-15',
  firstCouponDate: '2025-05-15',
  couponRate: '0.0425',
  couponFrequency: 2,
  accrualBasis: 'ACT/ACT',
  settlementPeriod: 1,
  referencePriceDate: '2026-11-20',
  bondType: 'treasury',
  perpetual: false,
  nextCallDate: null,
  nextCallPrice: null,
};
const note: PricedAsset = {
  id: '91282CLW9',
  assetClass: 'note',
  market: 'OTC',
  referencePrice: '99.5',
  bond: terms,
};
