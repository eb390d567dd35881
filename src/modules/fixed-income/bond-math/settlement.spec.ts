import { settlementDate } from 'src/modules/fixed-income/bond-math/settlement';

describe('settlementDate', () => {
  it('counts business days on the NYSE calendar', () => {
    expect(settlementDate('2025-03-06', 1)).toBe('2025-03-07');
    expect(settlementDate('2025-03-07', 1)).toBe('2025-03-10'); // over the weekend
    expect(settlementDate('2025-07-03', 1)).toBe('2025-07-07'); // over Independence Day and the weekend
    expect(settlementDate('2025-12-23', 2)).toBe('2025-12-26'); // T+2 over Christmas
    expect(settlementDate('2025-04-17', 2, 'XNAS')).toBe('2025-04-22'); // over Good Friday
  });

  it('books a weekend trade on the next business day', () => {
    expect(settlementDate('2025-03-08', 1)).toBe('2025-03-11');
    expect(settlementDate('2025-03-08', 0)).toBe('2025-03-10');
  });

  it('uses the local calendar of other markets', () => {
    expect(settlementDate('2025-09-30', 2, 'XNSA')).toBe('2025-10-03'); // Nigeria, 1 October
  });

  it('validates its inputs', () => {
    expect(() => settlementDate('2025-03-06', -1)).toThrow(
      expect.objectContaining({ param: 'settlementPeriodDays' }),
    );
    expect(() => settlementDate('2025-3-6', 1)).toThrow(expect.objectContaining({ param: 'tradeDate' }));
    expect(() => settlementDate('2025-03-06', 1, 'NOPE')).toThrow(expect.objectContaining({ status: 404 }));
  });
});
