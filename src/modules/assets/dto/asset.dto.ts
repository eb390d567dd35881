import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { BondAttributesDto } from 'src/modules/assets/dto/bond-attributes.dto';
import { MARKETS } from 'src/modules/markets/calendar';
import { ASSET_CLASSES } from 'src/modules/pricing/price-source';
import { COUNT, UNIX_SECONDS } from 'src/core/http/integer-schemas';

export const MARKET_CODES = MARKETS.map((m) => m.code);

/** Asset resource (spec, Asset): envelope keys, then the asset's fields. */
export class AssetDto {
  @ApiProperty({
    description: 'Asset identifier: a stable uuid for listed assets, the CUSIP for bonds.',
    example: 'b0b6dd9d-8b9b-5c5a-a3a5-8f3e1f2c6d7e',
  })
  id: string;

  @ApiProperty({ enum: ['asset'], example: 'asset' })
  object: 'asset';

  @ApiProperty({
    ...UNIX_SECONDS,
    nullable: true,
    description:
      'Always null: assets are reference data shared by every partner, not created by a request of yours ' +
      '(last_synced_at says when the record was last refreshed).',
    example: null,
  })
  created: null;

  @ApiProperty({ description: 'false for test-mode keys.', example: false })
  livemode: boolean;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    maxProperties: 0,
    description: 'Always empty: reference data carries no partner metadata.',
    example: {},
  })
  metadata: Record<string, never>;

  @ApiProperty({ enum: ASSET_CLASSES, example: 'equity' })
  class: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'ISO 3166-1 alpha-2, lower-case; null for country-agnostic instruments.',
    example: 'us',
  })
  country: string | null;

  @ApiProperty({
    enum: MARKET_CODES,
    description: 'ISO 10383 market code (CRYPTO for crypto venues).',
    example: 'XNAS',
  })
  market: string;

  @ApiProperty({
    description: 'Display name of the market (NASDAQ, NYSE, NGX, NSE, ...).',
    example: 'NASDAQ',
  })
  market_name: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'ISO 3166-1 alpha-2, upper-case; null for global or crypto venues.',
    example: 'US',
  })
  market_country: string | null;

  @ApiProperty({ description: 'ISO 4217 trading currency of the exchange.', example: 'USD' })
  market_currency: string;

  @ApiProperty({
    description: 'Ticker; for bonds the bond ticker when one exists, otherwise the CUSIP.',
    example: 'AAPL',
  })
  symbol: string;

  @ApiProperty({ example: 'Apple Inc.' })
  name: string;

  @ApiProperty({ enum: ['active', 'inactive'], example: 'active' })
  status: string;

  @ApiProperty({ example: true })
  tradable: boolean;

  @ApiProperty({ example: true })
  marginable: boolean;

  @ApiProperty({ example: true })
  shortable: boolean;

  @ApiProperty({ example: true })
  easy_to_borrow: boolean;

  @ApiProperty({ example: true })
  fractionable: boolean;

  @ApiProperty({ description: 'Fractional trading in extended hours.', example: true })
  fractional_eh_enabled: boolean;

  @ApiProperty({ description: 'ISO 4217 pricing currency.', example: 'USD' })
  currency: string;

  @ApiPropertyOptional({
    description: 'Last traded price (bonds: clean price, percent of par).',
    example: 229.87,
  })
  price?: number;

  @ApiPropertyOptional({ description: 'Change from the previous close.', example: 1.42 })
  change?: number;

  @ApiPropertyOptional({
    description: 'Percentage change from the previous close (1.25 is 1.25%).',
    example: 0.6216,
  })
  changePercent?: number;

  @ApiPropertyOptional({ example: 228.45 })
  previousClose?: number;

  @ApiPropertyOptional({ example: 229.81 })
  bidPrice?: number;

  @ApiPropertyOptional({ example: 229.93 })
  askPrice?: number;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the price was recorded by its source.',
    example: '2026-11-20T20:59:00.000Z',
  })
  price_timestamp?: string | null;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Last refresh of the reference data from its provider.',
    example: '2026-11-22T04:20:00.000Z',
  })
  last_synced_at?: string | null;

  @ApiPropertyOptional({
    type: BondAttributesDto,
    description: 'Present only when class is bond, bill or note.',
  })
  bond?: BondAttributesDto;
}

/** Description B item: the legacy asset shape. */
export class LegacyAssetDto {
  @ApiProperty({ example: 'b0b6dd9d-8b9b-5c5a-a3a5-8f3e1f2c6d7e' })
  id: string;

  @ApiProperty({ enum: ASSET_CLASSES, example: 'equity' })
  class: string;

  @ApiProperty({ enum: MARKET_CODES, example: 'XNAS' })
  market: string;

  @ApiProperty({ example: 'AAPL' })
  symbol: string;

  @ApiProperty({ example: 'Apple Inc.' })
  name: string;

  @ApiProperty({ enum: ['active', 'inactive'], example: 'active' })
  status: string;

  @ApiProperty({ example: true })
  tradable: boolean;

  @ApiProperty({ example: true })
  marginable: boolean;

  @ApiProperty({ example: true })
  shortable: boolean;

  @ApiProperty({ example: true })
  easy_to_borrow: boolean;

  @ApiProperty({ example: true })
  fractionable: boolean;
}

export class LegacyAssetSearchResultDto {
  @ApiProperty({ enum: ['success'], example: 'success' })
  status: 'success';

  @ApiProperty({ type: LegacyAssetDto, isArray: true })
  data: LegacyAssetDto[];

  @ApiProperty({ ...COUNT, maximum: 100, description: 'Number of items in data.', example: 1 })
  count: number;
}
