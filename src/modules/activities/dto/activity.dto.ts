import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { ISO_INSTANT } from 'src/core/clock/dto/test-clock.dto';
import { ACTIVITY_STATUSES, ACTIVITY_TYPES } from 'src/modules/activities/activity-types';

const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
const INSTANT = { message: '$property must be an ISO 8601 date-time with an offset' };
const NULLABLE = (example: string | null, description?: string) =>
  ({ type: String, nullable: true, example, ...(description ? { description } : {}) }) as const;

/** GET /trading/accounts/{account_id}/activities (docs/decisions.md, Activities). */
export class ActivitiesQuery {
  @ApiPropertyOptional({
    description: `Comma-separated activity types: ${ACTIVITY_TYPES.join(', ')}.`,
    maxLength: 200,
    example: 'FILL,FEE',
  })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  activity_types?: string;

  @ApiPropertyOptional({
    format: 'date',
    maxLength: 10,
    description: 'Only the activities of this business day (America/New_York).',
    example: '2027-03-01',
  })
  @IsOptional()
  @IsString()
  @Matches(DATE_PATTERN, { message: '$property must be a date written YYYY-MM-DD' })
  date?: string;

  @ApiPropertyOptional({
    format: 'date-time',
    maxLength: 40,
    description: 'Only activities after this instant (exclusive, on transaction_time).',
    example: '2027-03-01T00:00:00Z',
  })
  @IsOptional()
  @IsString()
  @Matches(ISO_INSTANT, INSTANT)
  after?: string;

  @ApiPropertyOptional({
    format: 'date-time',
    maxLength: 40,
    description: 'Only activities at or before this instant (inclusive, on transaction_time).',
    example: '2027-03-31T23:59:59Z',
  })
  @IsOptional()
  @IsString()
  @Matches(ISO_INSTANT, INSTANT)
  until?: string;

  @ApiPropertyOptional({ enum: ['asc', 'desc'], default: 'desc' })
  @IsOptional()
  @IsIn(['asc', 'desc'])
  direction?: 'asc' | 'desc';

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, default: 50, example: 50 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  page_size?: number;

  @ApiPropertyOptional({
    description: 'The `id` of the last activity of the previous page (same direction and filters).',
    maxLength: 64,
    example: 'act_000000000000002a9f1c3b7d2e',
  })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  page_token?: string;
}

/** One activity (account style; fields that do not apply are null). */
export class ActivityDto {
  @ApiProperty({
    description: 'Sorts in the order activities became visible: remember the last one to sync.',
    example: 'act_000000000000002a9f1c3b7d2e',
  })
  id: string;

  @ApiProperty({ format: 'uuid', example: '7f0e6c3e-3b4f-4f7e-9a55-1c2d3e4f5a6b' })
  account_id: string;

  @ApiProperty({ enum: ACTIVITY_TYPES, example: 'FILL' })
  activity_type: string;

  @ApiProperty({ enum: ACTIVITY_STATUSES, example: 'executed' })
  status: string;

  @ApiProperty({ format: 'date', description: 'Business date in America/New_York.', example: '2027-03-01' })
  date: string;

  @ApiProperty({ format: 'date-time', example: '2027-03-01T15:00:00.000Z' })
  transaction_time: string;

  @ApiProperty({ example: 'USD' })
  currency: string;

  @ApiProperty({ description: 'Signed effect on cash ("0" when none).', example: '-1855.00' })
  net_amount: string;

  @ApiProperty(NULLABLE('AAPL'))
  symbol: string | null;

  @ApiProperty(NULLABLE('10', 'Signed effect on the position.'))
  qty: string | null;

  @ApiProperty(NULLABLE('185.5'))
  price: string | null;

  @ApiProperty(NULLABLE(null, 'Cash per share (dividends, cash in lieu, mergers).'))
  per_share_amount: string | null;

  @ApiProperty(NULLABLE('buy', '`buy` or `sell` for a FILL; null otherwise.'))
  side: string | null;

  @ApiProperty(NULLABLE('ord_Xb4mT9qLc2Vn7Rz0Pk5WaE'))
  order_id: string | null;

  @ApiProperty(NULLABLE(null))
  transaction_id: string | null;

  @ApiProperty(NULLABLE(null))
  corporate_action_id: string | null;

  @ApiProperty(NULLABLE(null))
  journal_id: string | null;

  @ApiProperty(NULLABLE(null))
  conversion_id: string | null;

  @ApiProperty(NULLABLE('Bought 10 AAPL at 185.5'))
  description: string | null;
}
