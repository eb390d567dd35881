import { UNIX_SECONDS } from 'src/core/http/integer-schemas';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsOptional,
  IsString,
  Length,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { ISO_INSTANT } from 'src/core/clock/dto/test-clock.dto';
import { IsMetadata } from 'src/core/http/metadata';
import { CursorPageQuery } from 'src/core/http/pagination';
import { DecimalField, moneyAmountMessage } from 'src/core/money/decimal-field';

export const ENTRY_TYPES = ['JNLC', 'JNLS'] as const;
export const JOURNAL_STATUSES = ['executed', 'rejected'] as const;
export const BATCH_MAX_ENTRIES = 1000;

const ACCOUNT_ID = { format: 'uuid', example: '7f0e6c3e-3b4f-4f7e-9a55-1c2d3e4f5a6b' } as const;
const CURRENCY = /^[A-Z]{3}$/;
const AMOUNT = {
  required: false,
  description:
    'JNLC: the cash to move, above zero with at most the currency\u2019s minor units; within the tenant\u2019s journal ' +
    'limits (422 SVC-422-008) and the source\u2019s available cash (422 SVC-422-002).',
  example: '25.00',
  message: moneyAmountMessage('25.00'),
};

export class CreateJournalDto {
  @ApiProperty({ enum: ENTRY_TYPES, description: '`JNLC` cash, `JNLS` securities.', example: 'JNLC' })
  @IsIn(ENTRY_TYPES)
  entry_type: 'JNLC' | 'JNLS';

  @ApiProperty({
    ...ACCOUNT_ID,
    description: 'An account of the tenant\u2019s same mode; may be the firm account.',
  })
  @IsString()
  @Length(1, 64)
  from_account_id: string;

  @ApiProperty({ ...ACCOUNT_ID, description: 'Another account of the tenant\u2019s same mode.' })
  @IsString()
  @Length(1, 64)
  to_account_id: string;

  @DecimalField(AMOUNT)
  amount?: string;

  @ApiPropertyOptional({ description: 'JNLC: ISO 4217 currency of the cash.', maxLength: 3, example: 'USD' })
  @IsOptional()
  @IsString()
  @MaxLength(3)
  @Matches(CURRENCY, { message: '$property must be an ISO 4217 currency code such as USD' })
  currency?: string;

  @ApiPropertyOptional({
    description: 'JNLS: ticker or asset id of a position of the source.',
    example: 'AAPL',
  })
  @IsOptional()
  @IsString()
  @Length(1, 64)
  symbol?: string;

  @DecimalField({
    required: false,
    description: 'JNLS: units to move (at most the source\u2019s unreserved units: 422 SVC-422-003).',
    example: '1.5',
    message: '$property must be a decimal string such as "1.5"',
  })
  quantity?: string;

  @ApiPropertyOptional({ maxLength: 500, example: 'Sign-up reward' })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { campaign: 'spring' },
  })
  @IsOptional()
  @IsMetadata()
  metadata?: Record<string, string>;
}

export class BatchJournalEntryDto {
  @ApiProperty(ACCOUNT_ID)
  @IsString()
  @Length(1, 64)
  to_account_id: string;

  @DecimalField({ ...AMOUNT, required: true })
  amount: string;

  @ApiPropertyOptional({ maxLength: 500, example: 'Referral bonus' })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { user: 'u_1029' },
  })
  @IsOptional()
  @IsMetadata()
  metadata?: Record<string, string>;
}

export class CreateJournalBatchDto {
  @ApiProperty({ ...ACCOUNT_ID, description: 'The one source of every entry (usually the firm account).' })
  @IsString()
  @Length(1, 64)
  from_account_id: string;

  @ApiProperty({ description: 'ISO 4217 currency of every entry.', maxLength: 3, example: 'USD' })
  @IsString()
  @MaxLength(3)
  @Matches(CURRENCY, { message: '$property must be an ISO 4217 currency code such as USD' })
  currency: string;

  @ApiProperty({ type: [BatchJournalEntryDto], minItems: 1, maxItems: BATCH_MAX_ENTRIES })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(BATCH_MAX_ENTRIES)
  @ValidateNested({ each: true })
  @Type(() => BatchJournalEntryDto)
  entries: BatchJournalEntryDto[];
}

export class JournalsQuery extends CursorPageQuery {
  @ApiPropertyOptional({ ...ACCOUNT_ID, description: 'Journals from or to this account.' })
  @IsOptional()
  @IsString()
  @Length(1, 64)
  account_id?: string;

  @ApiPropertyOptional({ enum: ENTRY_TYPES })
  @IsOptional()
  @IsIn(ENTRY_TYPES)
  entry_type?: 'JNLC' | 'JNLS';

  @ApiPropertyOptional({ format: 'date-time', example: '2026-03-01T00:00:00Z' })
  @IsOptional()
  @IsString()
  @Matches(ISO_INSTANT, { message: '$property must be an ISO 8601 date-time with an offset' })
  created_gte?: string;

  @ApiPropertyOptional({ format: 'date-time', example: '2026-04-01T00:00:00Z' })
  @IsOptional()
  @IsString()
  @Matches(ISO_INSTANT, { message: '$property must be an ISO 8601 date-time with an offset' })
  created_lt?: string;
}

const NULLABLE = { type: String, nullable: true } as const;

export class JournalDto {
  @ApiProperty({ example: 'jnl_8Wm2cQx4Lr7Tb1Nv5Zk9Pa' })
  id: string;

  @ApiProperty({ enum: ['journal'], example: 'journal' })
  object: string;

  @ApiProperty({
    ...UNIX_SECONDS,
    nullable: true,
    description: 'Unix seconds (clock time).',
    example: 1772465400,
  })
  created: number | null;

  @ApiProperty({ example: false })
  livemode: boolean;

  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, example: {} })
  metadata: Record<string, string>;

  @ApiProperty({ enum: ENTRY_TYPES, example: 'JNLC' })
  entry_type: string;

  @ApiProperty(ACCOUNT_ID)
  from_account_id: string;

  @ApiProperty(ACCOUNT_ID)
  to_account_id: string;

  @ApiProperty({ ...NULLABLE, description: 'JNLC only.', example: '25.00' })
  amount: string | null;

  @ApiProperty({ ...NULLABLE, description: 'JNLC only.', example: 'USD' })
  currency: string | null;

  @ApiProperty({ ...NULLABLE, description: 'JNLS only.', example: null })
  symbol: string | null;

  @ApiProperty({ ...NULLABLE, description: 'JNLS only.', example: null })
  quantity: string | null;

  @ApiProperty({ ...NULLABLE, example: 'Sign-up reward' })
  description: string | null;

  @ApiProperty({ enum: JOURNAL_STATUSES, example: 'executed' })
  status: string;

  @ApiProperty({
    ...NULLABLE,
    description: 'Why a batch entry was rejected: the error code and message it would have answered alone.',
    example: null,
  })
  reject_reason: string | null;
}
