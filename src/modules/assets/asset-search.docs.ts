import { applyDecorators, createParamDecorator, ExecutionContext } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import { LEGACY_ASSET_CLASSES } from 'src/modules/assets/dto/search-assets.query';
import { ASSET_CLASSES } from 'src/modules/pricing/price-source';

/**
 * The raw query string object. Custom parameter decorators are not run through the global
 * ValidationPipe, so the handler can validate against the shape the request's prefix asks for.
 */
export const RawQuery = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): Record<string, unknown> =>
    ctx.switchToHttp().getRequest<{ query: Record<string, unknown> }>().query,
);

/** Query parameters of both search shapes, each saying which prefix it belongs to. */
export function ApiAssetSearchQuery(): MethodDecorator {
  return applyDecorators(
    ApiQuery({
      name: 'q',
      required: false,
      description: 'Ticker, name or part of either. Optional under /v1; required under /legacy/v1.',
      schema: { type: 'string', maxLength: 100, example: 'apple' },
    }),
    ApiQuery({
      name: 'status',
      required: false,
      description: 'Both shapes. Default active.',
      schema: { type: 'string', enum: ['active', 'inactive'], default: 'active' },
    }),
    ApiQuery({
      name: 'class',
      required: false,
      description: '/v1 only. Asset class.',
      schema: { type: 'string', enum: [...ASSET_CLASSES] },
    }),
    ApiQuery({
      name: 'country',
      required: false,
      description: '/v1 only. ISO 3166-1 alpha-2 country of the instrument, lower-case.',
      schema: { type: 'string', pattern: '^[A-Za-z]{2}$', example: 'us' },
    }),
    ApiQuery({
      name: 'asset_class',
      required: false,
      description:
        '/legacy/v1 only. us_equity: equities and ETFs listed on US markets; crypto: cryptocurrencies.',
      schema: { type: 'string', enum: [...LEGACY_ASSET_CLASSES] },
    }),
    ApiQuery({
      name: 'market',
      required: false,
      description:
        '/legacy/v1 only. Market code or name, case-insensitive (XNAS or NASDAQ, CRYPTO, NGX, ...).',
      schema: { type: 'string', maxLength: 20, example: 'NASDAQ' },
    }),
    ApiQuery({
      name: 'limit',
      required: false,
      description: '1 to 100. Default 50 under /v1, 10 under /legacy/v1.',
      schema: { type: 'integer', minimum: 1, maximum: 100 },
    }),
  );
}
