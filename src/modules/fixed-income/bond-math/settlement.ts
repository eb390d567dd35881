import { ServiceError } from 'src/core/errors/service-error';
import { DateInput } from 'src/modules/fixed-income/bond-math/bond-types';
import { addBusinessDays, isBusinessDay, requireMarket, resolveDate } from 'src/modules/markets/calendar';

// Regular-way settlement is at most a few business days; anything larger is a typo.
const MAX_SETTLEMENT_DAYS = 30;

/**
 * The standard settlement period, in business days, of the bond types the spec fixes (Bond attributes
 * and POST /investors/{investor_id}/orders): T+1 treasuries, T+2 corporates. A bond of these types
 * carries exactly this `settlement_period` (the importer refuses another), and its orders settle by it.
 */
export const STANDARD_SETTLEMENT_PERIODS: Readonly<Record<string, number>> = { treasury: 1, corporate: 2 };

/**
 * Settlement date for a trade settling T+N business days on `marketCode`'s calendar (T+1 Treasuries,
 * T+1 US equities and corporates since May 2024, T+2 elsewhere). A trade dated on a non-business day is
 * booked on the next business day, so a Saturday trade at T+1 settles on Tuesday.
 *
 * The exchange calendar stands in for the bond-market calendar: SIFMA also closes on Columbus and
 * Veterans Day, which callers settling Treasuries should account for.
 */
export function settlementDate(
  tradeDate: DateInput,
  settlementPeriodDays: number,
  marketCode = 'XNYS',
): string {
  const market = requireMarket(marketCode);
  if (
    !Number.isInteger(settlementPeriodDays) ||
    settlementPeriodDays < 0 ||
    settlementPeriodDays > MAX_SETTLEMENT_DAYS
  ) {
    throw ServiceError.invalid(
      'settlementPeriodDays',
      `settlementPeriodDays must be a whole number from 0 to ${MAX_SETTLEMENT_DAYS}.`,
    );
  }
  // A Date is a trade timestamp, so it is read as the market's local date.
  let tradeDay = resolveDate(market, tradeDate, 'tradeDate');
  if (!isBusinessDay(market.code, tradeDay)) {
    tradeDay = addBusinessDays(market.code, tradeDay, 1);
  }
  return addBusinessDays(market.code, tradeDay, settlementPeriodDays);
}
