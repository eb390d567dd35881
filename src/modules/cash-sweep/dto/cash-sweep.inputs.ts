import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  Equals,
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { IsMetadata } from 'src/core/http/metadata';

export const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
const DATE_MESSAGE = { message: '$property must be a date written YYYY-MM-DD' };
const CURRENCY = { message: '$property must be an ISO 4217 currency code such as USD' };
export const MAX_INTEREST_PAGE = 10_000;
export const DEFAULT_INTEREST_PAGE = 100;

function dateParam(description: string, example: string) {
  return ApiPropertyOptional({ format: 'date', description, example, maxLength: 10 });
}

/** GET /investors/{investor_id}/cash-sweep/interest (spec). */
export class InterestHistoryQuery {
  @dateParam('Only the entries of this day.', '2027-03-06')
  @IsOptional()
  @IsString()
  @Matches(DATE_PATTERN, DATE_MESSAGE)
  date?: string;

  @dateParam('Only entries after this day (exclusive).', '2027-02-28')
  @IsOptional()
  @IsString()
  @Matches(DATE_PATTERN, DATE_MESSAGE)
  after?: string;

  @dateParam('Only entries before this day (exclusive).', '2027-04-01')
  @IsOptional()
  @IsString()
  @Matches(DATE_PATTERN, DATE_MESSAGE)
  before?: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_INTEREST_PAGE,
    default: DEFAULT_INTEREST_PAGE,
    example: 100,
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_INTEREST_PAGE)
  page_size?: number;

  @ApiPropertyOptional({
    description: 'next_page_token of the previous page, with the same date, after and before.',
    maxLength: 200,
    example: 'eyJkIjoiMjAyNy0wMy0wNiIsImMiOiJVU0QifQ',
  })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  page_token?: string;
}

/** POST /test_helpers/cash-sweep/accrue. */
export class AccrueThroughDto {
  @ApiProperty({
    format: 'date',
    maxLength: 10,
    description:
      'Last day to accrue; it must have ended on the tenant\u2019s clock (before today in New York).',
    example: '2027-03-31',
  })
  @IsDefined()
  @IsString()
  @Matches(DATE_PATTERN, DATE_MESSAGE)
  through: string;
}

export class CreateAprTierDto {
  @ApiProperty({
    minLength: 1,
    maxLength: 64,
    description: 'Unique among the currency\u2019s active tiers.',
    example: 'premium',
  })
  @IsDefined()
  @IsString()
  @Length(1, 64)
  name: string;

  @ApiPropertyOptional({ maxLength: 3, default: 'USD', example: 'USD' })
  @IsOptional()
  @IsString()
  @Matches(/^[A-Z]{3}$/, CURRENCY)
  currency?: string;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    maximum: 10000,
    description: 'The investor\u2019s share, basis points a year.',
    example: 400,
  })
  @IsDefined()
  @IsInt()
  @Min(0)
  @Max(10_000)
  account_rate_bps: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: 10000,
    default: 0,
    description: 'The partner\u2019s share.',
    example: 25,
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(10_000)
  correspondent_rate_bps?: number;

  @ApiPropertyOptional({
    default: false,
    description: 'Make it the currency\u2019s default tier.',
    example: false,
  })
  @IsOptional()
  @IsBoolean()
  is_default?: boolean;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { segment: 'vip' },
  })
  @IsOptional()
  @IsMetadata()
  metadata?: Record<string, string>;
}

export class UpdateAprTierDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 64, example: 'premium plus' })
  @IsOptional()
  @IsString()
  @Length(1, 64)
  name?: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: 10000,
    description: 'Applies from the next day accrued.',
    example: 450,
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(10_000)
  account_rate_bps?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 10000, example: 25 })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(10_000)
  correspondent_rate_bps?: number;

  @ApiPropertyOptional({
    enum: [true],
    description:
      'true makes it the default (the previous default stops being one); a default cannot be unset.',
    example: true,
  })
  @IsOptional()
  @Equals(true, { message: '$property can only be true (make another tier the default instead)' })
  is_default?: true;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { segment: 'vip' },
  })
  @IsOptional()
  @IsMetadata()
  metadata?: Record<string, string>;
}

export class ListAprTiersQuery {
  @ApiPropertyOptional({ maxLength: 3, example: 'USD' })
  @IsOptional()
  @IsString()
  @Matches(/^[A-Z]{3}$/, CURRENCY)
  currency?: string;

  @ApiPropertyOptional({ enum: ['active', 'retired'], example: 'active' })
  @IsOptional()
  @IsIn(['active', 'retired'])
  status?: 'active' | 'retired';
}

/** PUT /cash-management/accounts/{account_id}/enrollment: a tier, or opted_out. */
export class ChangeEnrollmentDto {
  @ApiPropertyOptional({
    maxLength: 64,
    description: 'An active tier of the account\u2019s currency; enrolls an opted-out account again.',
    example: 'apr_4kTq9Lm2XbVa7Pn0Rz4cWd',
  })
  @IsOptional()
  @IsString()
  @Length(1, 64)
  apr_tier_id?: string;

  @ApiPropertyOptional({
    enum: [true],
    description: 'true leaves the program (no more accrual).',
    example: true,
  })
  @IsOptional()
  @Equals(true, { message: '$property can only be true (send apr_tier_id to enroll again)' })
  opted_out?: true;
}

export class ListPayoutsQuery {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, default: 50, example: 50 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;

  @ApiPropertyOptional({
    maxLength: 64,
    description: 'A payout id: the page after it (older).',
    example: 'ipay_2bQ7xRt5Lm9Kc3Vw8Pz1Nd',
  })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  starting_after?: string;

  @ApiPropertyOptional({ format: 'uuid', maxLength: 36, example: '7f0e6c3e-3b4f-4f7e-9a55-1c2d3e4f5a6b' })
  @IsOptional()
  @IsString()
  @MaxLength(36)
  account_id?: string;

  @ApiPropertyOptional({ maxLength: 3, example: 'USD' })
  @IsOptional()
  @IsString()
  @Matches(/^[A-Z]{3}$/, CURRENCY)
  currency?: string;
}
