import { All, Controller, Get, NotFoundException, Param, Query, Req } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { CurrentPrincipal, RequiresProduct } from 'src/core/auth/auth.decorators';
import type { Principal } from 'src/core/auth/principal';
import { ApiErrors } from 'src/core/errors/error-docs';
import { listUrl, ListEnvelope } from 'src/core/http/envelope';
import { ListEnvelopeOf } from 'src/core/http/list-envelope.dto';
import { BarsDto, QuoteDto, SnapshotDto } from 'src/modules/market-data/dto/market-data.dto';
import { BarsQuery, SnapshotsQuery } from 'src/modules/market-data/dto/market-data.query';
import { MarketDataService } from 'src/modules/market-data/market-data.service';
import { ReadsMayLag } from 'src/core/database/replicas/read-context';

const SYMBOL = ApiParam({
  name: 'symbol',
  description: 'Ticker (URL-encode the slash of BTC/USD, or send BTCUSD), asset id, or a bond CUSIP or ISIN.',
  example: 'AAPL',
});

@ApiTags('Market Data')
@RequiresProduct('market_data')
@Controller('market-data')
export class MarketDataController {
  constructor(private readonly marketData: MarketDataService) {}

  @Get('assets/:symbol/quote')
  @ReadsMayLag()
  @SYMBOL
  @ApiOperation({
    operationId: 'getMarketDataQuote',
    summary: 'Latest quote',
    description:
      'Latest bid/ask (`quote`: t, bp, bs, ap, as) and trade (`trade`: t, p, s) with change from the ' +
      'previous close. Bonds, bills and notes add a `bond` block at the settlement date of a trade made now ' +
      '(T+1 business days on the market calendar): clean price, dirty price = clean + accrued interest, ' +
      'accrued interest per 100 face and yield to maturity. Prices come from the sandbox price engine.',
  })
  @ApiOkResponse({ type: QuoteDto })
  @ApiErrors('SVC-404-001')
  quote(@CurrentPrincipal() principal: Principal, @Param('symbol') symbol: string): Promise<QuoteDto> {
    return this.marketData.quote(principal, symbol);
  }

  @Get('assets/:symbol/bars')
  @ReadsMayLag()
  @SYMBOL
  @ApiOperation({
    operationId: 'getMarketDataBars',
    summary: 'Historical bars',
    description:
      'OHLCV bars (t, o, h, l, c, v, n, vw) of the regular session, clock-aligned (1Min, 5Min, 1Hour) or one ' +
      'per trading day (1Day), from the same seeded walk as quotes, so they are reproducible. Bars start at ' +
      'or after `start` and at or before `end`; a bar in progress covers the minutes so far. Page with ' +
      '`next_page_token`.',
  })
  @ApiOkResponse({ type: BarsDto })
  @ApiErrors('SVC-400-001', 'SVC-400-002', 'SVC-404-001')
  bars(
    @CurrentPrincipal() principal: Principal,
    @Param('symbol') symbol: string,
    @Query() query: BarsQuery,
  ): Promise<BarsDto> {
    return this.marketData.bars(principal, symbol, query);
  }

  @Get('snapshots')
  @ReadsMayLag()
  @ApiOperation({
    operationId: 'getMarketDataSnapshots',
    summary: 'Snapshots',
    description:
      'For each symbol, in the order given: latest trade and quote, latest minute bar, current and ' +
      'previous daily bars (and the bond block for bonds). An unknown symbol answers 400 naming `symbols`.',
  })
  @ApiOkResponse({ type: ListEnvelopeOf(SnapshotDto, '/v1/market-data/snapshots') })
  @ApiErrors('SVC-400-001', 'SVC-400-002')
  snapshots(
    @CurrentPrincipal() principal: Principal,
    @Query() query: SnapshotsQuery,
    @Req() req: Request,
  ): Promise<ListEnvelope<SnapshotDto>> {
    return this.marketData.snapshots(principal, query, listUrl(req));
  }

  /** Any other path under /market-data: the entitlement check still answers first (legacy 403). */
  @All('*path')
  @ApiExcludeEndpoint()
  unknown(): never {
    throw new NotFoundException();
  }
}
