import { ServiceError } from 'src/core/errors/service-error';
import { bondSettlementDate } from 'src/modules/trading/settlement-date';

// Friday 21 November 2025, 10:00 in New York.
const friday = new Date('2025-11-21T15:00:00Z');
const treasury = { market: 'XNYS', settlementPeriod: 1 };

describe('bondSettlementDate (pure)', () => {
  it('is the settlement period in business days after the trade date on the market calendar', () => {
    expect(bondSettlementDate(treasury, undefined, friday)).toBe('2025-11-24'); // T+1 over the weekend
    expect(bondSettlementDate({ market: 'XNYS', settlementPeriod: 2 }, undefined, friday)).toBe('2025-11-25');
    // Wednesday before Thanksgiving (27 November): T+1 skips the holiday.
    expect(bondSettlementDate(treasury, undefined, new Date('2025-11-26T15:00:00Z'))).toBe('2025-11-28');
  });

  it('defaults to the treasury period (T+1) when the asset publishes none', () => {
    expect(bondSettlementDate({ market: 'XNYS', settlementPeriod: undefined }, undefined, friday)).toBe(
      '2025-11-24',
    );
  });

  it("dates the trade in the market's time zone, and settles on New York's calendar without a market", () => {
    // 23:30 UTC Thursday is already Friday in Lagos: T+1 is Monday there, Friday in New York.
    const lateThursday = new Date('2025-11-20T23:30:00Z');
    expect(bondSettlementDate({ market: 'XNSA', settlementPeriod: 1 }, undefined, lateThursday)).toBe(
      '2025-11-24',
    );
    expect(bondSettlementDate({ market: 'ZZZZ', settlementPeriod: 1 }, undefined, lateThursday)).toBe(
      '2025-11-21',
    );
  });

  it('takes a requested business day on or after the standard date', () => {
    expect(bondSettlementDate(treasury, '2025-11-24', friday)).toBe('2025-11-24');
    expect(bondSettlementDate(treasury, '2025-12-01', friday)).toBe('2025-12-01');
  });

  it.each([
    ['before the standard date', '2025-11-21'],
    ['a Saturday', '2025-11-29'],
    ['a holiday', '2025-11-27'],
    ['not a date', 'soon'],
  ])('refuses %s with 400 naming settlement_date', (_, requested) => {
    let refusal: unknown = null;
    try {
      bondSettlementDate(treasury, requested, friday);
    } catch (err) {
      refusal = err;
    }
    expect(refusal).toBeInstanceOf(ServiceError);
    expect(refusal).toMatchObject({
      code: 'SVC-400-001',
      param: 'settlement_date',
      message: 'settlement_date must be a business day on or after 2025-11-24 (T+1).',
    });
  });
});
