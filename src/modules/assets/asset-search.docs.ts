import { applyDecorators, createParamDecorator, ExecutionContext } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import {
  LEGACY_ASSET_CLASSES,
  LEGACY_SEARCH_LIMIT,
  SEARCH_LIMIT,
} from 'src/modules/assets/dto/search-assets.query';
import { ASSET_CLASSES } from 'src/modules/pricing/price-source';
import type { LegacyOperation } from 'src/openapi/legacy-operations';

/**
 * The raw query string object. Custom parameter decorators are not run through the global
 * ValidationPipe, so the handler can validate against the shape the request's prefix asks for.
 */
export const RawQuery = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): Record<string, unknown> =>
    ctx.switchToHttp().getRequest<{ query: Record<string, unknown> }>().query,
);

const Q = { type: 'string', maxLength: 100, example: 'apple' } as const;
const STATUS = { type: 'string' as const, enum: ['active', 'inactive'], default: 'active' };

/** Query parameters of description A, under /v1 (spec, GET /assets/search). */
export function ApiAssetSearchQuery(): MethodDecorator {
  return applyDecorators(
    ApiQuery({
      name: 'q',
      required: false,
      description:
        'Ticker, name or part of either, case-insensitive. When omitted, returns all assets up to limit, in ' +
        'ticker order.',
      schema: Q,
    }),
    ApiQuery({ name: 'status', required: false, description: 'Asset status.', schema: STATUS }),
    ApiQuery({
      name: 'class',
      required: false,
      description: 'Asset class.',
      schema: { type: 'string', enum: [...ASSET_CLASSES] },
    }),
    ApiQuery({
      name: 'country',
      required: false,
      description: 'ISO 3166-1 alpha-2 country of the instrument, lower-case (upper-case is accepted).',
      schema: { type: 'string', pattern: '^[A-Za-z]{2}$', example: 'us' },
    }),
    ApiQuery({
      name: 'limit',
      required: false,
      description: 'Page size, 1 to 100.',
      schema: { type: 'integer', ...SEARCH_LIMIT },
    }),
  );
}

/**
 * Description B, answered under the legacy alias only: published as an operation of its own at
 * `{LEGACY_BASE_PATH}/assets/search`, so generated clients can call it and tools see its own schema.
 */
export const LEGACY_ASSET_SEARCH: LegacyOperation = {
  path: '/assets/search',
  method: 'get',
  operationId: 'searchAssetsLegacy',
  summary: 'Search assets (legacy shape)',
  description:
    'Description B of asset search (spec, GET /assets/search), served by the legacy deployment only: ' +
    '`{status: "success", data, count}` with the legacy asset shape. Same ranking as `GET /v1/assets/search`. ' +
    'Without `q` it answers 400 SVC-400-002 naming `q`; `class` and `country` belong to the `/v1` shape and ' +
    'answer 400 naming them.',
  parameters: [
    { name: 'q', in: 'query', required: true, description: 'Ticker, name or part of either.', schema: Q },
    { name: 'status', in: 'query', required: false, description: 'Asset status.', schema: STATUS },
    {
      name: 'asset_class',
      in: 'query',
      required: false,
      description: 'us_equity: equities and ETFs listed on US markets; crypto: cryptocurrencies.',
      schema: { type: 'string', enum: [...LEGACY_ASSET_CLASSES] },
    },
    {
      name: 'market',
      in: 'query',
      required: false,
      description:
        'Market code or name, case-insensitive: NASDAQ, NYSE, ARCA, BATS, OTC, NGX, NSE, CRYPTO or XNAS, XNYS, ...',
      schema: { type: 'string', maxLength: 20, example: 'NASDAQ' },
    },
    {
      name: 'limit',
      in: 'query',
      required: false,
      description: 'Page size, 1 to 100.',
      schema: { type: 'integer', format: 'int32', ...LEGACY_SEARCH_LIMIT },
    },
  ],
  response: {
    description: 'Description B: the matching assets in the legacy shape, and how many there are.',
    schema: 'LegacyAssetSearchResultDto',
  },
};
