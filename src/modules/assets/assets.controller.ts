import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { isLegacyRequest } from 'src/app.setup';
import { CurrentPrincipal } from 'src/core/auth/auth.decorators';
import type { Principal } from 'src/core/auth/principal';
import { ApiErrors } from 'src/core/errors/error-docs';
import { listUrl } from 'src/core/http/envelope';
import { ListEnvelopeOf } from 'src/core/http/list-envelope.dto';
import { ApiAssetSearchQuery, RawQuery } from 'src/modules/assets/asset-search.docs';
import { AssetsService } from 'src/modules/assets/assets.service';
import { AssetDto, LegacyAssetSearchResultDto } from 'src/modules/assets/dto/asset.dto';
import { ReadsMayLag } from 'src/core/database/replicas/read-context';

const AssetList = ListEnvelopeOf(AssetDto, '/v1/assets/search');

@ApiTags('Assets')
// Description B's answer, published with the legacy operation (LEGACY_ASSET_SEARCH).
@ApiExtraModels(LegacyAssetSearchResultDto)
@Controller('assets')
export class AssetsController {
  constructor(private readonly assets: AssetsService) {}

  @Get('search')
  @ReadsMayLag()
  @ApiOperation({
    operationId: 'searchAssets',
    summary: 'Search assets',
    description:
      'Description A of asset search (spec, GET /assets/search): a list envelope of asset resources with ' +
      'prices. Ranking: exact ticker, then ticker prefix, then names with a word starting with q, then other ' +
      'partial matches (q of three characters or more); without q, ticker order. A ticker listed on several ' +
      'markets shows its US primary listing first. The legacy deployment answers description B at ' +
      '`/legacy/v1/assets/search` (operation searchAssetsLegacy); `asset_class` and `market` belong to that ' +
      'shape and answer 400 naming them here.',
  })
  @ApiAssetSearchQuery()
  @ApiOkResponse({ description: 'Description A: the matching asset resources.', type: AssetList })
  @ApiErrors('SVC-400-001', 'SVC-400-002')
  async search(
    @CurrentPrincipal() principal: Principal,
    @RawQuery() query: Record<string, unknown>,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    if (isLegacyRequest(req)) {
      res.json(await this.assets.legacySearch(query));
      return;
    }
    // Description A leaves the service as encoded JSON, sent as it is with res.json's content type
    // (a Buffer returned to Nest would be serialised as an object, hence @Res without passthrough).
    const body = await this.assets.search(principal, query, listUrl(req));
    res.type('application/json; charset=utf-8').send(body);
  }

  @Get(':id')
  @ReadsMayLag()
  @ApiParam({
    name: 'id',
    description: 'Asset id, ticker (case-insensitive; US primary listing first), or a bond CUSIP or ISIN.',
    example: 'AAPL',
  })
  @ApiOperation({
    operationId: 'getAsset',
    summary: 'Retrieve an asset',
    description:
      'One asset resource with its current simulated price. Accepts the asset id, a ticker (`AAPL`, ' +
      '`BTC/USD` or `BTCUSD`), or for bonds the CUSIP (which is their id) or the ISIN.',
  })
  @ApiOkResponse({ type: AssetDto })
  @ApiErrors('SVC-404-001')
  get(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<AssetDto> {
    return this.assets.get(principal, id);
  }
}
