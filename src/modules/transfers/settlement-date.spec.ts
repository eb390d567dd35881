import { afterBusinessDays } from 'src/modules/transfers/settlement-date';

describe('settlement after business days', () => {
  const at = (iso: string) => new Date(iso);

  it('keeps the local time and skips weekends and the currency’s market holidays', () => {
    // Wednesday 2025-07-02 11:00 New York → Thursday; Thursday → Monday (Friday 4 July is a holiday).
    expect(afterBusinessDays(at('2025-07-02T15:00:00.250Z'), 1, 'USD').toISOString()).toBe(
      '2025-07-03T15:00:00.250Z',
    );
    expect(afterBusinessDays(at('2025-07-03T15:00:00Z'), 1, 'USD').toISOString()).toBe(
      '2025-07-07T15:00:00.000Z',
    );
    // A Saturday counts from there: Monday.
    expect(afterBusinessDays(at('2025-07-05T15:00:00Z'), 1, 'USD').toISOString()).toBe(
      '2025-07-07T15:00:00.000Z',
    );
    // Across the change to winter time the New York wall clock stays at 11:00.
    expect(afterBusinessDays(at('2025-10-31T15:00:00Z'), 1, 'USD').toISOString()).toBe(
      '2025-11-03T16:00:00.000Z',
    );
  });

  it('uses weekdays for currencies without a market calendar, and zero days is the same instant', () => {
    expect(afterBusinessDays(at('2025-07-04T09:00:00Z'), 1, 'EUR').toISOString()).toBe(
      '2025-07-07T09:00:00.000Z',
    );
    expect(afterBusinessDays(at('2025-07-04T09:00:00Z'), 0, 'USD').toISOString()).toBe(
      '2025-07-04T09:00:00.000Z',
    );
    expect(afterBusinessDays(at('2025-07-04T09:00:00Z'), 2, 'EUR').toISOString()).toBe(
      '2025-07-08T09:00:00.000Z',
    );
  });
});
