import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional, IsString, Length, Matches, MaxLength } from 'class-validator';
import { IsMetadata } from 'src/core/http/metadata';

const upper = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.toUpperCase() : value);

/** POST /investors/{investor_id}/funding-sources (docs/decisions.md, Funding sources, deposits and withdrawals). */
export class CreateFundingSourceDto {
  @ApiProperty({ enum: ['bank_account'], example: 'bank_account' })
  @IsIn(['bank_account'])
  type: 'bank_account';

  @ApiProperty({ minLength: 1, maxLength: 140, example: 'Ada Obi' })
  @IsString()
  @Length(1, 140)
  account_holder_name: string;

  @ApiProperty({
    description:
      'Bank account number (4 to 34 letters and digits, IBANs included). Stored encrypted and never shown again: ' +
      'responses carry `account_number_last4`. Sandbox: `000111111116` makes transfers fail, any other settles ' +
      '(`000123456789` is the documented settling number).',
    example: '000123456789',
  })
  @IsString()
  @MaxLength(34)
  @Matches(/^[A-Za-z0-9]{4,34}$/, { message: '$property must be 4 to 34 letters and digits' })
  account_number: string;

  @ApiPropertyOptional({
    description:
      'ABA routing number (9 digits with a valid check digit): required for US accounts, refused otherwise.',
    example: '110000000',
  })
  @IsOptional()
  @IsString()
  @MaxLength(9)
  @Matches(/^\d{9}$/, { message: '$property must be 9 digits' })
  routing_number?: string;

  @ApiPropertyOptional({
    description:
      'The bank\u2019s code (SWIFT/BIC, sort code, bank and branch code): required outside the US.',
    example: 'GTBINGLA',
  })
  @IsOptional()
  @IsString()
  @MaxLength(20)
  @Matches(/^[A-Za-z0-9-]{1,20}$/, { message: '$property must be 1 to 20 letters, digits or dashes' })
  bank_code?: string;

  @ApiProperty({ description: 'ISO 4217 currency of the account.', example: 'USD' })
  @Transform(upper)
  @IsString()
  @MaxLength(3)
  @Matches(/^[A-Z]{3}$/, { message: '$property must be an ISO 4217 currency code such as USD' })
  currency: string;

  @ApiProperty({ description: 'ISO 3166-1 alpha-2 country of the bank.', example: 'US' })
  @Transform(upper)
  @IsString()
  @MaxLength(2)
  @Matches(/^[A-Z]{2}$/, { message: '$property must be an ISO 3166-1 alpha-2 country code such as US' })
  country: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { nickname: 'salary' },
  })
  @IsOptional()
  @IsMetadata()
  metadata?: Record<string, string>;
}

export class FundingSourceDto {
  @ApiProperty({ example: 'fs_3kTq9Lm2XbVa7Pn0Rz4cWd' })
  id: string;

  @ApiProperty({ enum: ['funding_source'], example: 'funding_source' })
  object: 'funding_source';

  @ApiProperty({
    type: 'integer',
    format: 'int64',
    minimum: 0,
    maximum: 253402300799,
    description: 'Unix seconds (clock time).',
    example: 1772465400,
  })
  created: number;

  @ApiProperty({ example: false })
  livemode: boolean;

  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, example: { nickname: 'salary' } })
  metadata: Record<string, string>;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'null for a bank account of the tenant\u2019s firm account.',
    example: 'inv_4Qm1bX9kLr2TzP0aVn7c8w',
  })
  investor_id: string | null;

  @ApiProperty({ enum: ['bank_account'], example: 'bank_account' })
  type: 'bank_account';

  @ApiProperty({ example: 'Ada Obi' })
  account_holder_name: string;

  @ApiProperty({ example: '6789' })
  account_number_last4: string;

  @ApiProperty({ type: String, nullable: true, example: '110000000' })
  routing_number: string | null;

  @ApiProperty({ type: String, nullable: true, example: null })
  bank_code: string | null;

  @ApiProperty({ example: 'USD' })
  currency: string;

  @ApiProperty({ example: 'US' })
  country: string;

  @ApiProperty({
    enum: ['verified'],
    description: 'Usable at once: the sandbox verifies every new bank account.',
    example: 'verified',
  })
  status: 'verified';
}

export class DeletedFundingSourceDto {
  @ApiProperty({ example: 'fs_3kTq9Lm2XbVa7Pn0Rz4cWd' })
  id: string;

  @ApiProperty({ enum: ['funding_source'], example: 'funding_source' })
  object: 'funding_source';

  @ApiProperty({ enum: [true], example: true })
  deleted: true;

  @ApiProperty({ example: false })
  livemode: boolean;
}
