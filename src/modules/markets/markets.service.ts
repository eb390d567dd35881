import { Injectable } from '@nestjs/common';
import type { Principal } from 'src/core/auth/principal';
import { ClockService } from 'src/core/clock/clock.service';
import { ListEnvelope, toList } from 'src/core/http/envelope';
import {
  addDays,
  calendar,
  clock,
  daysBetween,
  MARKETS,
  MarketDefinition,
  MAX_CALENDAR_DAYS,
  parseCalendarDate,
  requireMarket,
  tradingDay,
  TradingDay,
  wallClock,
} from 'src/modules/markets/calendar';
import type {
  MarketCalendarQuery,
  MarketClockDto,
  MarketClockQuery,
  MarketDto,
  TradingDayDto,
} from 'src/modules/markets/dto/market.dto';
import { ServiceError } from 'src/core/errors/service-error';

const DEFAULT_CALENDAR_DAYS = 30;

function marketRecord(market: MarketDefinition, livemode: boolean): MarketDto {
  return {
    object: 'market',
    livemode,
    code: market.code,
    name: market.name,
    display_name: market.display_name,
    country: market.country,
    currency: market.currency,
    timezone: market.timezone,
    sessions: market.sessions,
    early_close_sessions: market.early_close_sessions,
    has_holidays: market.holiday_calendar !== null,
  };
}

function dayRecord(day: TradingDay, livemode: boolean): TradingDayDto {
  return { object: 'trading_day', livemode, ...day };
}

/**
 * Markets, their clocks and trading calendars, from the calendar module (holidays from date-holidays).
 * "Now" is the caller's clock: the tenant's test clock in test mode.
 */
@Injectable()
export class MarketsService {
  constructor(private readonly time: ClockService) {}

  list(principal: Principal, url: string): ListEnvelope<MarketDto> {
    return toList(
      url,
      MARKETS.map((m) => marketRecord(m, principal.livemode)),
      false,
    );
  }

  get(principal: Principal, code: string): MarketDto {
    return marketRecord(requireMarket(code), principal.livemode);
  }

  async clock(principal: Principal, code: string, query: MarketClockQuery): Promise<MarketClockDto> {
    const market = requireMarket(code);
    const at = query.at === undefined ? await this.time.now(principal) : new Date(query.at);
    if (Number.isNaN(at.getTime())) {
      throw ServiceError.invalid('at', 'at must be an ISO 8601 date-time.');
    }
    return { object: 'market_clock', livemode: principal.livemode, ...clock(market.code, at) };
  }

  async calendar(
    principal: Principal,
    code: string,
    query: MarketCalendarQuery,
    url: string,
  ): Promise<ListEnvelope<TradingDayDto>> {
    const market = requireMarket(code);
    const start = query.start ?? wallClock((await this.time.now(principal)).getTime(), market.timezone).date;
    parseCalendarDate(start, 'start');
    const end = query.end ?? addDays(start, DEFAULT_CALENDAR_DAYS);
    if (!query.include_closed) {
      return toList(
        url,
        calendar(market.code, start, end).map((day) => dayRecord(day, principal.livemode)),
        false,
      );
    }
    const span = daysBetween(parseCalendarDate(start, 'start'), parseCalendarDate(end, 'end')) + 1;
    if (span < 1) {
      throw ServiceError.invalid('start', 'start must be on or before end.');
    }
    if (span > MAX_CALENDAR_DAYS) {
      throw ServiceError.invalid(
        'end',
        `The range from start to end may cover at most ${MAX_CALENDAR_DAYS} days.`,
      );
    }
    const days = Array.from({ length: span }, (_, i) =>
      dayRecord(tradingDay(market.code, addDays(start, i)), principal.livemode),
    );
    return toList(url, days, false);
  }
}
