import { Controller, Get, Param, Query, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { CurrentPrincipal } from 'src/core/auth/auth.decorators';
import type { Principal } from 'src/core/auth/principal';
import { ApiErrors } from 'src/core/errors/error-docs';
import { listUrl, ListEnvelope } from 'src/core/http/envelope';
import { ListEnvelopeOf } from 'src/core/http/list-envelope.dto';
import { MARKETS } from 'src/modules/markets/calendar';
import {
  MarketCalendarQuery,
  MarketClockDto,
  MarketClockQuery,
  MarketDto,
  TradingDayDto,
} from 'src/modules/markets/dto/market.dto';
import { MarketsService } from 'src/modules/markets/markets.service';
import { ReadsMayLag } from 'src/core/database/replicas/read-context';

const MARKET_CODE = ApiParam({
  name: 'code',
  description: 'Market code, case-insensitive.',
  enum: MARKETS.map((m) => m.code),
  example: 'XNYS',
});

@ApiTags('Markets')
@Controller('markets')
export class MarketsController {
  constructor(private readonly markets: MarketsService) {}

  @Get()
  @ReadsMayLag()
  @ApiOperation({
    operationId: 'listMarkets',
    summary: 'List markets',
    description:
      'Every market assets trade on: code, names, country, currency, time zone and local session hours ' +
      '(pre, regular, post), with the early-close hours where the market has them.',
  })
  @ApiOkResponse({ type: ListEnvelopeOf(MarketDto, '/v1/markets') })
  list(@CurrentPrincipal() principal: Principal, @Req() req: Request): ListEnvelope<MarketDto> {
    return this.markets.list(principal, listUrl(req));
  }

  @Get(':code')
  @ReadsMayLag()
  @MARKET_CODE
  @ApiOperation({
    operationId: 'getMarket',
    summary: 'Retrieve a market',
    description: 'One market by code.',
  })
  @ApiOkResponse({ type: MarketDto })
  @ApiErrors('SVC-404-001')
  get(@CurrentPrincipal() principal: Principal, @Param('code') code: string): MarketDto {
    return this.markets.get(principal, code);
  }

  @Get(':code/clock')
  @ReadsMayLag()
  @MARKET_CODE
  @ApiOperation({
    operationId: 'getMarketClock',
    summary: 'Market clock',
    description:
      'Whether the market is open now (the tenant’s test clock in test mode) or at `at`: `is_open` is true only in the regular session; ' +
      '`session` is pre, regular, post or closed; `next_open` and `next_close` skip weekends, holidays and ' +
      'honour early closes. Times carry the market’s UTC offset.',
  })
  @ApiOkResponse({ type: MarketClockDto })
  @ApiErrors('SVC-400-001', 'SVC-404-001')
  clock(
    @CurrentPrincipal() principal: Principal,
    @Param('code') code: string,
    @Query() query: MarketClockQuery,
  ): Promise<MarketClockDto> {
    return this.markets.clock(principal, code, query);
  }

  @Get(':code/calendar')
  @ReadsMayLag()
  @MARKET_CODE
  @ApiOperation({
    operationId: 'getMarketCalendar',
    summary: 'Market calendar',
    description:
      'Trading days from `start` to `end` (inclusive, at most 366 days) with their session times; holidays ' +
      'and weekends are left out unless `include_closed=true`. Holidays come from the maintained ' +
      'date-holidays rules (NYSE rules for US markets, Nigerian and Kenyan public holidays for NGX and NSE); ' +
      'US early closes end the regular session at 13:00. A bad `start` or `end` answers 400 naming it.',
  })
  @ApiOkResponse({ type: ListEnvelopeOf(TradingDayDto, '/v1/markets/XNYS/calendar') })
  @ApiErrors('SVC-400-001', 'SVC-404-001')
  calendar(
    @CurrentPrincipal() principal: Principal,
    @Param('code') code: string,
    @Query() query: MarketCalendarQuery,
    @Req() req: Request,
  ): Promise<ListEnvelope<TradingDayDto>> {
    return this.markets.calendar(principal, code, query, listUrl(req));
  }
}
