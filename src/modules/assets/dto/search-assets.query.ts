import { ApiPropertyOptional, ApiProperty } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsDefined, IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { ASSET_CLASSES, AssetClass } from 'src/modules/pricing/price-source';

/** `limit` of description A (spec, Limits: 1 to 100, default 50). */
export const SEARCH_LIMIT = { minimum: 1, maximum: 100, default: 50 } as const;
/** `limit` of description B (spec, Limits: 1 to 100, default 10). */
export const LEGACY_SEARCH_LIMIT = { minimum: 1, maximum: 100, default: 10 } as const;

const blankToUndefined = ({ value }: { value: unknown }) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

/** GET /v1/assets/search, description A (spec, Assets). */
export class SearchAssetsQuery {
  @ApiPropertyOptional({
    description:
      'Ticker, name or part of either, case-insensitive. Ranked: exact ticker, then ticker prefix, then names ' +
      'with a word starting with q, then other partial matches (q of three characters or more). When omitted, ' +
      'returns all assets up to limit, in ticker order.',
    maxLength: 100,
    example: 'apple',
  })
  @IsOptional()
  @Transform(blankToUndefined)
  @IsString()
  @MaxLength(100)
  q?: string;

  @ApiPropertyOptional({ enum: ['active', 'inactive'], default: 'active' })
  @IsOptional()
  @IsIn(['active', 'inactive'])
  status?: 'active' | 'inactive';

  @ApiPropertyOptional({ enum: ASSET_CLASSES, description: 'Asset class.' })
  @IsOptional()
  @IsIn(ASSET_CLASSES)
  class?: AssetClass;

  @ApiPropertyOptional({
    description: 'ISO 3166-1 alpha-2 country of the instrument, lower-case (upper-case is accepted).',
    example: 'us',
    pattern: '^[A-Za-z]{2}$',
  })
  @IsOptional()
  @Matches(/^[A-Za-z]{2}$/, { message: 'country must be an ISO 3166-1 alpha-2 code such as us' })
  country?: string;

  @ApiPropertyOptional({ type: 'integer', ...SEARCH_LIMIT })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(SEARCH_LIMIT.minimum)
  @Max(SEARCH_LIMIT.maximum)
  limit?: number;
}

export const LEGACY_ASSET_CLASSES = ['us_equity', 'crypto'] as const;

/** GET /legacy/v1/assets/search, description B (spec, Assets). */
export class LegacySearchAssetsQuery {
  @ApiProperty({
    description: 'Ticker, name or part of either (required).',
    maxLength: 100,
    example: 'apple',
  })
  @Transform(blankToUndefined)
  @IsDefined()
  @IsString()
  @MaxLength(100)
  q: string;

  @ApiPropertyOptional({ enum: ['active', 'inactive'], default: 'active' })
  @IsOptional()
  @IsIn(['active', 'inactive'])
  status?: 'active' | 'inactive';

  @ApiPropertyOptional({
    enum: LEGACY_ASSET_CLASSES,
    description: 'us_equity: equities and ETFs listed on US markets; crypto: cryptocurrencies.',
  })
  @IsOptional()
  @IsIn(LEGACY_ASSET_CLASSES)
  asset_class?: (typeof LEGACY_ASSET_CLASSES)[number];

  @ApiPropertyOptional({
    description:
      'Market code or name, case-insensitive: NASDAQ, NYSE, ARCA, BATS, OTC, NGX, NSE, CRYPTO or XNAS, XNYS, ...',
    example: 'NASDAQ',
  })
  @IsOptional()
  @IsString()
  @MaxLength(20)
  market?: string;

  @ApiPropertyOptional({ type: 'integer', ...LEGACY_SEARCH_LIMIT })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(LEGACY_SEARCH_LIMIT.minimum)
  @Max(LEGACY_SEARCH_LIMIT.maximum)
  limit?: number;
}
