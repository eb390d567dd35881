import { formatInstant, wallClock, zonedTimeToInstant } from 'src/modules/markets/calendar/zoned-time';

describe('zoned time', () => {
  it('converts local session times on both sides of a DST change', () => {
    expect(new Date(zonedTimeToInstant('2025-03-07', 570, 'America/New_York')).toISOString()).toBe(
      '2025-03-07T14:30:00.000Z',
    );
    expect(new Date(zonedTimeToInstant('2025-03-10', 570, 'America/New_York')).toISOString()).toBe(
      '2025-03-10T13:30:00.000Z',
    );
    expect(new Date(zonedTimeToInstant('2025-12-31', 1440, 'UTC')).toISOString()).toBe(
      '2026-01-01T00:00:00.000Z',
    );
  });

  it('formats with the local offset', () => {
    expect(formatInstant(Date.parse('2025-07-03T17:00:00Z'), 'America/New_York')).toBe(
      '2025-07-03T13:00:00-04:00',
    );
    expect(formatInstant(Date.parse('2025-07-03T17:00:00Z'), 'Africa/Nairobi')).toBe(
      '2025-07-03T20:00:00+03:00',
    );
    expect(formatInstant(Date.parse('2025-07-03T17:00:05.250Z'), 'UTC')).toBe('2025-07-03T17:00:05Z');
  });

  it('reads the local date and minute', () => {
    expect(wallClock(Date.parse('2025-01-01T04:59:00Z'), 'America/New_York')).toEqual({
      date: '2024-12-31',
      minuteOfDay: 23 * 60 + 59,
      offsetMinutes: -300,
    });
  });
});
