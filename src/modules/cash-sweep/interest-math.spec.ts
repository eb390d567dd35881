import {
  dailyInterest,
  endOfMarketDay,
  isLastDayOfMonth,
  marketDay,
  payoutAmount,
  payoutDay,
  payoutInstant,
} from 'src/modules/cash-sweep/interest-math';

describe('cash sweep interest math', () => {
  it('a day of interest is cash × bps / 10,000 / 365, half-even at 8 decimals', () => {
    expect(dailyInterest('10000.00', 350).toFixed(8)).toBe('0.95890411');
    expect(dailyInterest('2000', 730).toFixed(8)).toBe('0.40000000');
    // Exact ties (…5 at the 9th decimal) go to the even neighbour.
    expect(dailyInterest('0.01825', 1).toFixed(8)).toBe('0.00000000');
    expect(dailyInterest('0.05475', 1).toFixed(8)).toBe('0.00000002');
    expect(dailyInterest('0', 350).toFixed(8)).toBe('0.00000000');
  });

  it('a payout rounds the month half-even to the currency\u2019s minor units', () => {
    expect(payoutAmount('29.72602745', 'USD').toFixed()).toBe('29.73');
    expect(payoutAmount('0.125', 'USD').toFixed()).toBe('0.12');
    expect(payoutAmount('0.135', 'USD').toFixed()).toBe('0.14');
    expect(payoutAmount('10.5', 'JPY').toFixed()).toBe('10');
  });

  it('days end at midnight New York, standard and daylight time alike', () => {
    expect(endOfMarketDay('2027-03-13', 'USD').toISOString()).toBe('2027-03-14T05:00:00.000Z');
    expect(endOfMarketDay('2027-03-14', 'USD').toISOString()).toBe('2027-03-15T04:00:00.000Z');
    expect(marketDay(new Date('2027-03-15T03:59:59Z'), 'USD')).toBe('2027-03-14');
    expect(marketDay(new Date('2027-03-15T04:00:00Z'), 'USD')).toBe('2027-03-15');
  });

  it('the payout day is the next month\u2019s first business day on the US calendar', () => {
    expect(payoutDay('2027-02', 'USD')).toBe('2027-03-01');
    // 1 January 2027 is a holiday, then a weekend.
    expect(payoutDay('2026-12', 'USD')).toBe('2027-01-04');
    expect(payoutDay('2027-04', 'USD')).toBe('2027-05-03');
    expect(payoutInstant('2027-03', 'USD').toISOString()).toBe('2027-04-01T13:00:00.000Z');
    expect(isLastDayOfMonth('2028-02-28')).toBe(false);
    expect(isLastDayOfMonth('2028-02-29')).toBe(true);
  });
});
