import Decimal from 'decimal.js';
import fc from 'fast-check';
import {
  cashMergerOutcome,
  dividendAmounts,
  splitOutcome,
  stockMergerOutcome,
} from 'src/modules/corporate-actions/entitlement-math';

const decimal = (min: number, max: number, dp: number) =>
  fc
    .integer({ min: Math.round(min * 10 ** dp), max: Math.round(max * 10 ** dp) })
    .map((n) => new Decimal(n).div(10 ** dp));

const ratio = fc
  .tuple(fc.integer({ min: 1, max: 50 }), fc.integer({ min: 1, max: 50 }))
  .filter(([a, b]) => a !== b);

describe('splitOutcome', () => {
  it('conserves quantity × price up to the cash in lieu, and the total cost basis with the fraction sold', () => {
    fc.assert(
      fc.property(
        decimal(0.00000001, 100000, 8),
        decimal(0, 10000000, 8),
        ratio,
        fc.boolean(),
        decimal(0.01, 5000, 2),
        (quantity, basis, [oldRate, newRate], fractionable, close) => {
          const out = splitOutcome({
            quantity,
            totalCostBasis: basis,
            oldRate,
            newRate,
            fractionable,
            previousClose: close,
            currency: 'USD',
          });
          const adjusted = close.times(oldRate).div(newRate);
          // Value before = shares after at the adjusted price + cash in lieu, within rounding: half a
          // cent of cash in lieu, and 1e-8 of a share a fractionable position may lose to its 8 decimals.
          const before = quantity.times(close);
          const after = out.quantityAfter.times(adjusted).plus(out.cashInLieu);
          expect(before.minus(after).abs().lte(adjusted.times('0.00000001').plus('0.005'))).toBe(true);
          // Basis: kept in full, or split between the shares kept and the fraction paid.
          expect(out.costBasisAfter.plus(out.fractionBasis).eq(basis)).toBe(true);
          expect(out.costBasisAfter.gte(0) && out.fractionBasis.gte(0)).toBe(true);
          if (fractionable) {
            expect(out.cashInLieu.isZero() && out.costBasisAfter.eq(basis)).toBe(true);
          } else {
            expect(out.quantityAfter.isInteger()).toBe(true);
            expect(out.fraction.gte(0) && out.fraction.lt(1)).toBe(true);
            // The fraction and its price as the CIL activity shows them (8 decimals) give its cash.
            expect(out.fraction.decimalPlaces() <= 8 && out.fractionPrice.decimalPlaces() <= 8).toBe(true);
            expect(out.fraction.times(out.fractionPrice).toDecimalPlaces(2, Decimal.ROUND_HALF_EVEN)).toEqual(
              out.cashInLieu,
            );
          }
        },
      ),
      { seed: 20_261_128, numRuns: 500 },
    );
  });

  it('pays a 1-for-10 reverse split of 25 unfractionable shares as 2 shares and half a share in cash', () => {
    const out = splitOutcome({
      quantity: '25',
      totalCostBasis: '1000',
      oldRate: '10',
      newRate: '1',
      fractionable: false,
      previousClose: '4.13',
      currency: 'USD',
    });
    expect(out.quantityAfter.toFixed()).toBe('2');
    expect(out.cashInLieu.toFixed()).toBe('20.65');
    expect(out.fractionBasis.toFixed()).toBe('200');
    expect(out.costBasisAfter.toFixed()).toBe('800');
    expect([out.fraction.toFixed(), out.fractionPrice.toFixed()]).toEqual(['0.5', '41.3']);
  });

  it('sells a third of a share to 8 decimals in a 1-for-3 reverse split of 10, at 3 × the close', () => {
    const out = splitOutcome({
      quantity: '10',
      totalCostBasis: '100',
      oldRate: '3',
      newRate: '1',
      fractionable: false,
      previousClose: '7.5',
      currency: 'USD',
    });
    expect(out.quantityAfter.toFixed()).toBe('3');
    expect([out.fraction.toFixed(), out.fractionPrice.toFixed()]).toEqual(['0.33333333', '22.5']);
    // 0.33333333 × 22.5 = 7.4999999 → 7.50; basis 100 × 0.33333333 / 3.33333333 = 9.99999991 (8 decimals).
    expect(out.cashInLieu.toFixed()).toBe('7.5');
    expect(out.fractionBasis.toFixed()).toBe('9.99999991');
    expect(out.costBasisAfter.toFixed()).toBe('90.00000009');
  });
});

describe('dividendAmounts', () => {
  it('rounds gross and withholding half-even to the minor unit', () => {
    expect(dividendAmounts('3.5', '0.24', 3000, true, 'USD')).toEqual({
      gross: new Decimal('0.84'),
      withholding: new Decimal('0.25'),
      net: new Decimal('0.59'),
    });
    // 0.125 → 0.12 (half-even), not 0.13.
    expect(dividendAmounts('1', '0.125', 0, false, 'USD').gross.toFixed()).toBe('0.12');
    expect(dividendAmounts('1', '0.004', 3000, true, 'USD').gross.toFixed()).toBe('0');
    expect(dividendAmounts('10', '0.24', 3000, false, 'USD').withholding.toFixed()).toBe('0');
  });
});

describe('stockMergerOutcome', () => {
  it('conserves value up to the cash, and carries the whole basis into the acquirer and the fraction', () => {
    fc.assert(
      fc.property(
        decimal(0.00000001, 100000, 8),
        decimal(0, 10000000, 8),
        ratio,
        fc.boolean(),
        decimal(0.01, 5000, 2),
        fc.option(decimal(0.01, 100, 4)),
        (quantity, basis, [oldRate, newRate], fractionable, close, cashRate) => {
          const out = stockMergerOutcome({
            quantity,
            totalCostBasis: basis,
            oldRate,
            newRate,
            cashRate,
            fractionable,
            acquirerPreviousClose: close,
            currency: 'USD',
          });
          // Acquirer shares at its close + cash in lieu = the target's shares × ratio at that close.
          const owed = quantity.times(newRate).div(oldRate).times(close);
          const got = out.quantityAfter.times(close).plus(out.cashInLieu);
          expect(owed.minus(got).abs().lte(close.times('0.00000001').plus('0.005'))).toBe(true);
          expect(out.costBasisAfter.plus(out.fractionBasis).eq(basis)).toBe(true);
          const cash = cashRate === null ? new Decimal(0) : quantity.times(cashRate);
          expect(out.cash.minus(cash).abs().lte('0.005')).toBe(true);
          if (!fractionable) {
            expect(out.quantityAfter.isInteger()).toBe(true);
          }
        },
      ),
      { seed: 20_261_129, numRuns: 500 },
    );
  });

  it('turns 7 shares at 3 for 2 into 10 unfractionable shares, half a share in lieu and the cash part', () => {
    const out = stockMergerOutcome({
      quantity: '7',
      totalCostBasis: '1050',
      oldRate: '2',
      newRate: '3',
      cashRate: '1.25',
      fractionable: false,
      acquirerPreviousClose: '40.01',
      currency: 'USD',
    });
    expect(out.quantityAfter.toFixed()).toBe('10');
    // 0.5 × 40.01 = 20.005 → 20.00 (half-even).
    expect(out.cashInLieu.toFixed()).toBe('20');
    expect(out.fractionBasis.toFixed()).toBe('50');
    expect(out.costBasisAfter.toFixed()).toBe('1000');
    expect(out.cash.toFixed()).toBe('8.75');
  });
});

describe('cashMergerOutcome', () => {
  it('pays quantity × cash_rate half-even and realizes cash − basis', () => {
    const out = cashMergerOutcome({
      quantity: '2.5',
      totalCostBasis: '750.2',
      cashRate: '325.125',
      currency: 'USD',
    });
    // 812.8125 → 812.81.
    expect(out.cash.toFixed()).toBe('812.81');
    expect(out.realizedGainLoss.toFixed()).toBe('62.61');
    expect(
      cashMergerOutcome({
        quantity: '1',
        totalCostBasis: '10',
        cashRate: '4',
        currency: 'USD',
      }).realizedGainLoss.toFixed(),
    ).toBe('-6');
  });
});
