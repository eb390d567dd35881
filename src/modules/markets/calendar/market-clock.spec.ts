import { ServiceError } from 'src/core/errors/service-error';
import { clock } from 'src/modules/markets/calendar/market-clock';

// Friday 7 March 2025 is the last trading day before US daylight saving starts (Sunday 9 March),
// so the next open moves from -05:00 to -04:00.
describe('market clock', () => {
  it.each([
    [
      '2025-03-07T13:00:00Z',
      '2025-03-07T08:00:00-05:00',
      'pre',
      '2025-03-07T09:30:00-05:00',
      '2025-03-07T16:00:00-05:00',
    ],
    [
      '2025-03-07T15:00:00Z',
      '2025-03-07T10:00:00-05:00',
      'regular',
      '2025-03-10T09:30:00-04:00',
      '2025-03-07T16:00:00-05:00',
    ],
    [
      '2025-03-07T22:00:00Z',
      '2025-03-07T17:00:00-05:00',
      'post',
      '2025-03-10T09:30:00-04:00',
      '2025-03-10T16:00:00-04:00',
    ],
    [
      '2025-03-08T02:00:00Z',
      '2025-03-07T21:00:00-05:00',
      'closed',
      '2025-03-10T09:30:00-04:00',
      '2025-03-10T16:00:00-04:00',
    ],
  ])('at %s reads %s as %s', (now, timestamp, session, nextOpen, nextClose) => {
    expect(clock('XNYS', new Date(now))).toEqual({
      market: 'XNYS',
      timestamp,
      is_open: session === 'regular',
      session,
      next_open: nextOpen,
      next_close: nextClose,
    });
  });

  it('is closed all weekend, with the next open after the autumn DST change', () => {
    // Saturday 1 November 2025, 10:00 EDT; clocks fall back on Sunday 2 November.
    expect(clock('XNAS', '2025-11-01T14:00:00Z')).toEqual({
      market: 'XNAS',
      timestamp: '2025-11-01T10:00:00-04:00',
      is_open: false,
      session: 'closed',
      next_open: '2025-11-03T09:30:00-05:00',
      next_close: '2025-11-03T16:00:00-05:00',
    });
  });

  it('treats a weekday before 04:00 as closed with the same day opening next', () => {
    expect(clock('XNYS', '2025-03-10T07:00:00Z')).toMatchObject({
      timestamp: '2025-03-10T03:00:00-04:00',
      session: 'closed',
      next_open: '2025-03-10T09:30:00-04:00',
    });
  });

  it('follows early-close hours', () => {
    // 2025-11-28 closes at 13:00; the post-market runs until 17:00.
    expect(clock('XNYS', '2025-11-28T19:00:00Z')).toMatchObject({
      timestamp: '2025-11-28T14:00:00-05:00',
      session: 'post',
      next_open: '2025-12-01T09:30:00-05:00',
    });
    expect(clock('XNYS', '2025-11-28T17:59:59Z')).toMatchObject({
      is_open: true,
      next_close: '2025-11-28T13:00:00-05:00',
    });
  });

  it('skips holidays when looking for the next open', () => {
    expect(clock('XNYS', '2025-07-03T18:00:00Z')).toMatchObject({
      session: 'post',
      next_open: '2025-07-07T09:30:00-04:00',
      next_close: '2025-07-07T16:00:00-04:00',
    });
  });

  it('has no pre- or post-market in Lagos and Nairobi', () => {
    expect(clock('XNSA', '2025-10-02T08:30:00Z')).toMatchObject({
      timestamp: '2025-10-02T09:30:00+01:00',
      session: 'closed',
      next_open: '2025-10-02T10:00:00+01:00',
    });
    expect(clock('XNSA', '2025-09-30T14:00:00Z')).toMatchObject({
      session: 'closed',
      next_open: '2025-10-02T10:00:00+01:00',
    });
    expect(clock('XNAI', '2025-10-21T07:00:00Z')).toMatchObject({
      timestamp: '2025-10-21T10:00:00+03:00',
      is_open: true,
      next_close: '2025-10-21T15:00:00+03:00',
    });
  });

  it('keeps crypto open at any hour', () => {
    expect(clock('CRYPTO', '2025-12-25T03:15:00Z')).toEqual({
      market: 'CRYPTO',
      timestamp: '2025-12-25T03:15:00Z',
      is_open: true,
      session: 'regular',
      next_open: null,
      next_close: null,
    });
  });

  it('rejects an unreadable timestamp', () => {
    expect(() => clock('XNYS', 'yesterday')).toThrow(ServiceError);
  });
});
