import {
  addBusinessDays,
  requireMarket,
  sessionInstants,
  zonedTimeToInstant,
} from 'src/modules/markets/calendar';

/** 04:00 in the market's time zone: corporate actions apply before the first session of the day. */
const APPLY_MINUTE = 4 * 60;

/** When an action dated `date` applies in `market` (04:00 local of that calendar date). */
export function applyAt(market: string, date: string): Date {
  return new Date(zonedTimeToInstant(date, APPLY_MINUTE, requireMarket(market).timezone));
}

/**
 * Eligibility instant of an ex date: the close of the last business day before it. Positions at
 * that instant are entitled; fills on or after it do not count.
 */
export function eligibilityCutoff(market: string, exDate: string): Date {
  const definition = requireMarket(market);
  const day = addBusinessDays(market, exDate, -1);
  const session = sessionInstants(definition, day);
  return new Date(session ? session.close : zonedTimeToInstant(day, 16 * 60, definition.timezone));
}
