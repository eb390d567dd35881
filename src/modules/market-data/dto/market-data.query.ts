import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsDefined,
  IsIn,
  IsInt,
  IsISO8601,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { TIMEFRAMES, Timeframe } from 'src/modules/pricing/price-source';

export const MAX_BARS = 1000;

export class BarsQuery {
  @ApiProperty({ enum: TIMEFRAMES, description: 'Bar length.', example: '1Day' })
  @IsDefined()
  @IsIn(TIMEFRAMES)
  timeframe: Timeframe;

  @ApiPropertyOptional({
    description:
      'Earliest bar start, RFC 3339 date-time or YYYY-MM-DD (UTC midnight). Default: end minus 1 day (1Min), ' +
      '5 days (5Min), 30 days (1Hour) or 365 days (1Day).',
    example: '2026-10-01',
  })
  @IsOptional()
  @IsISO8601({ strict: true })
  start?: string;

  @ApiPropertyOptional({
    description:
      'Latest bar start, RFC 3339 date-time or YYYY-MM-DD (the whole UTC day). Default and maximum: now.',
    example: '2026-11-20T21:00:00Z',
  })
  @IsOptional()
  @IsISO8601({ strict: true })
  end?: string;

  @ApiPropertyOptional({
    minimum: 1,
    maximum: MAX_BARS,
    default: 100,
    description: 'Bars per page. Bonds, bills and notes page at most 100 bars; next_page_token continues.',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_BARS)
  limit?: number;

  @ApiPropertyOptional({
    enum: ['asc', 'desc'],
    default: 'asc',
    description: 'asc: oldest first; desc: newest first.',
  })
  @IsOptional()
  @IsIn(['asc', 'desc'])
  sort?: 'asc' | 'desc';

  @ApiPropertyOptional({
    description: 'next_page_token of the previous page (same timeframe, start, end and sort).',
  })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  page_token?: string;
}

export class SnapshotsQuery {
  @ApiProperty({
    description: 'Comma-separated tickers, asset ids, CUSIPs or ISINs; at most 100.',
    example: 'AAPL,MSFT,BTC/USD,91282CLW9',
  })
  @IsDefined()
  @IsString()
  @MaxLength(4000)
  symbols: string;
}
