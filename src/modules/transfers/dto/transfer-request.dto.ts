import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { IsMetadata } from 'src/core/http/metadata';
import { DecimalField, moneyAmountMessage } from 'src/core/money/decimal-field';
import { TRANSFER_METHODS, TransferMethod } from 'src/modules/transfers/entities/transfer.entity';

/** The amount of a transfer: the currency's decimals and the tenant's bounds are checked once the currency is known. */
const TRANSFER_AMOUNT = {
  required: true,
  description:
    'Decimal string, greater than zero, with at most the currency\u2019s minor units (USD 2, JPY 0), no exponent, ' +
    'within the tenant\u2019s bounds (default 1 to 1,000,000). Anything else is 400 naming `amount`.',
  example: '250.00',
  message: moneyAmountMessage('250.00'),
};

export class FundingDetailsDto {
  @ApiProperty({
    enum: ['fiat', 'crypto'],
    description: '`fiat` only in v1: `crypto` answers 400 naming `funding_details.funding_type`.',
    example: 'fiat',
  })
  @IsIn(['fiat'], { message: '$property must be fiat: crypto funding is not available' })
  funding_type: 'fiat';

  @ApiPropertyOptional({
    description: 'ISO 4217 currency; defaults to the bank account\u2019s currency and must equal it.',
    example: 'USD',
  })
  @IsOptional()
  @IsString()
  @MaxLength(3)
  @Matches(/^[A-Z]{3}$/, { message: '$property must be an ISO 4217 currency code such as USD' })
  fiat_currency?: string;

  @ApiProperty({
    description: 'The investor\u2019s funding source (fs_...).',
    example: 'fs_3kTq9Lm2XbVa7Pn0Rz4cWd',
  })
  @IsString()
  @Length(1, 64)
  bank_account_id: string;

  @ApiPropertyOptional({ enum: TRANSFER_METHODS, default: 'ach', example: 'ach' })
  @IsOptional()
  @IsIn(TRANSFER_METHODS)
  method?: TransferMethod;
}

/** Body of POST /wallet/accounts/{account_id}/funding and /withdrawals (spec, Wallet). */
export class WalletTransferRequestDto {
  @DecimalField(TRANSFER_AMOUNT)
  amount: string;

  @ApiProperty({ type: FundingDetailsDto })
  @IsObject()
  @ValidateNested()
  @Type(() => FundingDetailsDto)
  funding_details: FundingDetailsDto;

  @ApiPropertyOptional({ maxLength: 500, example: 'Initial funding' })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string;

  @ApiPropertyOptional({
    maxLength: 255,
    description: 'The partner\u2019s own reference.',
    example: 'partner-tx-1029',
  })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  external_reference_id?: string;
}

/** Body of POST /investors/{investor_id}/deposits and /withdrawals (envelope views). */
export class CreateInvestorTransferDto {
  @DecimalField(TRANSFER_AMOUNT)
  amount: string;

  @ApiPropertyOptional({
    description: 'ISO 4217 currency; defaults to the funding source\u2019s currency and must equal it.',
    example: 'USD',
  })
  @IsOptional()
  @IsString()
  @MaxLength(3)
  @Matches(/^[A-Z]{3}$/, { message: '$property must be an ISO 4217 currency code such as USD' })
  currency?: string;

  @ApiProperty({ example: 'fs_3kTq9Lm2XbVa7Pn0Rz4cWd' })
  @IsString()
  @Length(1, 64)
  funding_source_id: string;

  @ApiPropertyOptional({ enum: TRANSFER_METHODS, default: 'ach', example: 'ach' })
  @IsOptional()
  @IsIn(TRANSFER_METHODS)
  method?: TransferMethod;

  @ApiPropertyOptional({ maxLength: 500, example: 'Monthly savings' })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { plan: 'gold' },
  })
  @IsOptional()
  @IsMetadata()
  metadata?: Record<string, string>;
}

/** Body of POST /test_helpers/wallet/transactions/{transaction_id}/fail. */
export class FailTransferDto {
  @ApiPropertyOptional({ maxLength: 500, example: 'bank_account_closed' })
  @IsOptional()
  @IsString()
  @Length(1, 500)
  failure_reason?: string;
}
