import { MARKETS } from 'src/modules/markets/calendar';
import { dayNumberOf, SessionTimeline } from 'src/modules/pricing/simulated/session-timeline';

describe('SessionTimeline', () => {
  it('calls a day a trading day exactly when it has a session, on every market, holidays and weekends included', () => {
    const byCalendar = new SessionTimeline();
    const bySession = new SessionTimeline();
    const first = dayNumberOf('2025-01-01');
    for (const market of MARKETS) {
      const mismatches: string[] = [];
      for (let day = first; day < first + 800; day++) {
        if (byCalendar.isTradingDay(market.code, day) !== (bySession.window(market.code, day) !== null)) {
          mismatches.push(`${market.code} ${day}`);
        }
      }
      expect(mismatches).toEqual([]);
    }
    // Christmas and a Saturday on a US exchange; the same days on a market open every day.
    expect(byCalendar.isTradingDay('XNYS', dayNumberOf('2025-12-25'))).toBe(false);
    expect(byCalendar.isTradingDay('XNYS', dayNumberOf('2025-12-27'))).toBe(false);
    expect(byCalendar.isTradingDay('XNYS', dayNumberOf('2025-12-26'))).toBe(true);
  });
});
