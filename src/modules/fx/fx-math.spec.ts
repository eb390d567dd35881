import { Money } from 'src/core/money/money';
import { customerRate, fxAmounts } from 'src/modules/fx/fx-math';
import { FxRateWalk } from 'src/modules/fx/fx-rate-walk';

describe('fx-math', () => {
  it('takes the spread off the mid rate, 8 decimals half-even', () => {
    expect(customerRate('1500', 100).toFixed()).toBe('1485');
    // 0.00066667 × 0.99 = 0.0006600033 → 0.00066000
    expect(customerRate('0.00066667', 100).toFixed(8)).toBe('0.00066000');
    expect(customerRate('0.0077', 250).toFixed(8)).toBe('0.00750750');
  });

  it('rounds to_amount down and from_amount up, and keeps the rest at mid as spread', () => {
    const sell = fxAmounts({
      fromCurrency: 'USD',
      toCurrency: 'NGN',
      midRate: new Money('1500'),
      rate: new Money('1485'),
      amount: new Money('10.01'),
    });
    // 10.01 × 1485 = 14864.85; at mid 15015.00; spread 150.15
    expect([sell.toAmount.toFixed(2), sell.spreadAmount.toFixed(2)]).toEqual(['14864.85', '150.15']);
    const buy = fxAmounts({
      fromCurrency: 'NGN',
      toCurrency: 'USD',
      midRate: new Money('0.00066667'),
      rate: new Money('0.00066'),
      toAmount: new Money('100'),
    });
    // 100 / 0.00066 = 151515.1515… → 151515.16; at mid 101.01; spread 1.01
    expect([buy.fromAmount.toFixed(2), buy.spreadAmount.toFixed(2)]).toEqual(['151515.16', '1.01']);
  });

  it('walks the same way in every process and holds within a clock hour', () => {
    const a = new FxRateWalk('seed');
    const b = new FxRateWalk('seed');
    const at = new Date('2027-03-01T15:10:00Z');
    expect(a.mid('USD', 'NGN', at).toFixed()).toBe(b.mid('USD', 'NGN', at).toFixed());
    expect(a.mid('USD', 'NGN', new Date('2027-03-01T15:59:59Z')).toFixed()).toBe(
      a.mid('USD', 'NGN', at).toFixed(),
    );
    expect(a.mid('USD', 'USD', at).toFixed()).toBe('1');
    const kes = a.mid('USD', 'KES', at).toNumber();
    expect(kes).toBeGreaterThan(129.5 * 0.7);
    expect(kes).toBeLessThan(129.5 * 1.3);
  });
});
