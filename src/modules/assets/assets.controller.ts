import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
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

const AssetList = ListEnvelopeOf(AssetDto, '/v1/assets/search');

@ApiTags('Assets')
@ApiExtraModels(AssetList, LegacyAssetSearchResultDto)
@Controller('assets')
export class AssetsController {
  constructor(private readonly assets: AssetsService) {}

  @Get('search')
  @ApiOperation({
    operationId: 'searchAssets',
    summary: 'Search assets',
    description:
      'Two shapes share this path (spec, GET /assets/search).\n\n' +
      '**Under `/v1` (description A)** — a list envelope of asset resources with prices. Query: `q` ' +
      '(optional; ticker, name or part of either, case-insensitive), `status` (default active), `class`, ' +
      '`country` (lower-case ISO 3166-1 alpha-2), `limit` (1 to 100, default 50). Ranking: exact ticker, ' +
      'then ticker prefix, then names with a word starting with q, then other partial matches; without q, ' +
      'ticker order. A ticker listed on several markets shows its US primary listing first.\n\n' +
      '**Under the legacy alias `/legacy/v1` (description B)** — `{status: "success", data, count}` with the ' +
      'legacy asset shape. Query: `q` (required: 400 SVC-400-002 without it), `status` (default active), ' +
      '`asset_class` (us_equity or crypto), `market` (code or name: NASDAQ, NYSE, ARCA, BATS, OTC, NGX, NSE, ' +
      'CRYPTO), `limit` (1 to 100, default 10). `class`, `country` and `asset_class`, `market` belong to their ' +
      'own shape: sending one to the other answers 400 naming it.',
  })
  @ApiAssetSearchQuery()
  @ApiOkResponse({
    description:
      'Description A under /v1 (AssetList); description B under /legacy/v1 (LegacyAssetSearchResultDto).',
    schema: {
      oneOf: [{ $ref: getSchemaPath(AssetList) }, { $ref: getSchemaPath(LegacyAssetSearchResultDto) }],
    },
  })
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
