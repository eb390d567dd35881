import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, ValidateIf } from 'class-validator';
import { COMMISSION_TYPES, CommissionType } from 'src/modules/trading/order-types';
import { BASIS_POINTS } from 'src/core/http/integer-schemas';

/** The support CLI's decimal amounts: at most 12 whole digits and 4 decimals, no sign. */
const AMOUNT = /^(0|[1-9]\d{0,11})(\.\d{1,4})?$/;
const AMOUNT_MESSAGE = (field: string) =>
  `${field} must be a decimal string such as 0.50 (at most 12 digits before the point and 4 after)`;

function amountProperty(description: string, example: string) {
  return ApiPropertyOptional({ type: String, pattern: AMOUNT.source, maxLength: 17, description, example });
}

function bpsProperty(description: string, example: number) {
  return ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 10000, description, example });
}

export class UpdateSandboxCommissionDto {
  @ApiPropertyOptional({
    enum: [...COMMISSION_TYPES],
    description:
      '`notional`: a flat amount per order, charged on its first fill; `qty`: per unit filled; `bps`: basis ' +
      'points of each fill’s value. Absent: unchanged.',
    example: 'bps',
  })
  @IsOptional()
  @IsIn(COMMISSION_TYPES)
  commission_type?: CommissionType;

  @amountProperty(
    'Flat amount, amount per unit, or basis points, by `commission_type`. Absent: unchanged.',
    '25',
  )
  @IsOptional()
  @IsString()
  @Matches(AMOUNT, { message: AMOUNT_MESSAGE('amount') })
  amount?: string;
}

export class SandboxCommissionDto {
  @ApiProperty({ example: 'ten_4fJx2m9QpT7aLk3Vn8ZcYw' })
  tenant_id: string;

  @ApiProperty({ enum: [...COMMISSION_TYPES], example: 'bps' })
  commission_type: CommissionType;

  @ApiProperty({ example: '25', description: 'Default 0 (no commission).' })
  amount: string;
}

export class UpdateSandboxTransferSettingsDto {
  @amountProperty('Flat fee per deposit, in the transfer’s currency.', '0')
  @IsOptional()
  @IsString()
  @Matches(AMOUNT, { message: AMOUNT_MESSAGE('deposit_fee_flat') })
  deposit_fee_flat?: string;

  @bpsProperty('Deposit fee in basis points of the amount.', 25)
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(10_000)
  deposit_fee_bps?: number;

  @amountProperty('Flat fee per withdrawal, in the transfer’s currency.', '1.50')
  @IsOptional()
  @IsString()
  @Matches(AMOUNT, { message: AMOUNT_MESSAGE('withdrawal_fee_flat') })
  withdrawal_fee_flat?: string;

  @bpsProperty('Withdrawal fee in basis points of the amount.', 0)
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(10_000)
  withdrawal_fee_bps?: number;

  @amountProperty('Smallest amount per transfer (above zero, at most max_amount).', '1')
  @IsOptional()
  @IsString()
  @Matches(AMOUNT, { message: AMOUNT_MESSAGE('min_amount') })
  min_amount?: string;

  @amountProperty('Largest amount per transfer.', '5000')
  @IsOptional()
  @IsString()
  @Matches(AMOUNT, { message: AMOUNT_MESSAGE('max_amount') })
  max_amount?: string;
}

export class SandboxFeeDto {
  @ApiProperty({ example: '1.5' })
  flat: string;

  @ApiProperty({ ...BASIS_POINTS, example: 0 })
  bps: number;
}

export class SandboxTransferSettingsDto {
  @ApiProperty({ example: 'ten_4fJx2m9QpT7aLk3Vn8ZcYw' })
  tenant_id: string;

  @ApiProperty({ type: SandboxFeeDto })
  deposit_fee: SandboxFeeDto;

  @ApiProperty({ type: SandboxFeeDto })
  withdrawal_fee: SandboxFeeDto;

  @ApiProperty({ example: '1' })
  min_amount: string;

  @ApiProperty({ example: '1000000' })
  max_amount: string;
}

export class UpdateSandboxCashSweepRatesDto {
  @ApiPropertyOptional({
    description: 'ISO 4217 currency of the default tier. Default: USD.',
    example: 'USD',
    maxLength: 3,
  })
  @IsOptional()
  @IsString()
  @Matches(/^[A-Z]{3}$/, { message: 'currency must be an ISO 4217 code such as USD' })
  currency?: string;

  @bpsProperty('The investor’s rate, basis points a year. Absent: unchanged.', 400)
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(10_000)
  account_rate_bps?: number;

  @bpsProperty('The partner’s (correspondent) rate, basis points a year. Absent: unchanged.', 50)
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(10_000)
  correspondent_rate_bps?: number;
}

export class SandboxDefaultTierDto {
  @ApiProperty({ example: 'apr_2Lk9Qm3xTz7bVn1cWp4aYr' })
  id: string;

  @ApiProperty({ example: false })
  livemode: boolean;

  @ApiProperty({ example: 'standard' })
  name: string;

  @ApiProperty({ example: 'USD' })
  currency: string;

  @ApiProperty({ ...BASIS_POINTS, example: 400 })
  account_rate_bps: number;

  @ApiProperty({ ...BASIS_POINTS, example: 50 })
  correspondent_rate_bps: number;
}

export class SandboxCashSweepRatesDto {
  @ApiProperty({ example: 'ten_4fJx2m9QpT7aLk3Vn8ZcYw' })
  tenant_id: string;

  @ApiProperty({
    type: [SandboxDefaultTierDto],
    description: 'The default tier of test mode, then of live mode.',
  })
  data: SandboxDefaultTierDto[];
}

export class UpdateSandboxCorporateActionSettingsDto {
  @ApiPropertyOptional({
    description:
      'Tax withheld from cash dividends of investors whose country of tax residence is not the US, in basis ' +
      'points (3000 = 30 %). Absent: unchanged.',
    example: 1500,
    type: 'integer',
    minimum: 0,
    maximum: 10000,
  })
  // Absent leaves it unchanged; null is not a rate (400), unlike IsOptional which would let it through.
  @ValidateIf((o: UpdateSandboxCorporateActionSettingsDto) => o.dividend_withholding_bps !== undefined)
  @IsInt()
  @Min(0)
  @Max(10000)
  dividend_withholding_bps?: number;
}

export class SandboxCorporateActionSettingsDto {
  @ApiProperty({ example: 'ten_4fJx2m9QpT7aLk3Vn8ZcYw' })
  tenant_id: string;

  @ApiProperty({ example: 3000, type: 'integer', minimum: 0, maximum: 10000 })
  dividend_withholding_bps: number;
}
