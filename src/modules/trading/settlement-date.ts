import { ServiceError } from 'src/core/errors/service-error';
import { STANDARD_SETTLEMENT_PERIODS } from 'src/modules/fixed-income/bond-math/settlement';
import { addBusinessDays, getMarket, isBusinessDay, wallClock } from 'src/modules/markets/calendar';

/**
 * A bond order's settlement date: the one sent (a business day on or after the standard one) or the
 * standard one, the asset's settlement period in business days after the trade date on its market's
 * calendar (T+1 treasuries, T+2 corporates: STANDARD_SETTLEMENT_PERIODS, which the importer holds and
 * the asset record publishes). A market without a calendar settles on New York's (XNYS).
 * 400 naming settlement_date when the one sent is not a date, is too early or is not a business day.
 */
export function bondSettlementDate(
  asset: { market: string; settlementPeriod: number | undefined },
  requested: string | undefined,
  now: Date,
): string {
  const period = asset.settlementPeriod ?? STANDARD_SETTLEMENT_PERIODS.treasury;
  const market = getMarket(asset.market);
  const calendar = market ? asset.market : 'XNYS';
  const tradeDate = wallClock(now.getTime(), market?.timezone ?? 'America/New_York').date;
  const standard = addBusinessDays(calendar, tradeDate, period);
  if (requested === undefined) {
    return standard;
  }
  if (
    Number.isNaN(Date.parse(`${requested}T00:00:00Z`)) ||
    requested < standard ||
    !isBusinessDay(calendar, requested)
  ) {
    throw ServiceError.invalid(
      'settlement_date',
      `settlement_date must be a business day on or after ${standard} (T+${period}).`,
    );
  }
  return requested;
}
