import { BASIS_POINTS, UNIX_SECONDS } from 'src/core/http/integer-schemas';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length, Matches, MaxLength } from 'class-validator';
import { ISO_INSTANT } from 'src/core/clock/dto/test-clock.dto';
import { OffsetPageQuery } from 'src/core/http/pagination';
import { DecimalField, moneyAmountMessage } from 'src/core/money/decimal-field';
import { FX_CURRENCIES } from 'src/modules/fx/fx-math';

const CURRENCY_MESSAGE = '$property must be one of USD, NGN, KES';
const AMOUNT = {
  required: false,
  description:
    'The amount of from_currency to sell: a decimal string above zero with at most the currency\u2019s minor ' +
    'units. Send exactly one of `amount` and `to_amount` (both or neither: 400 naming `to_amount`).',
  example: '150000.00',
  message: moneyAmountMessage('150000.00'),
};
const TO_AMOUNT = {
  required: false,
  description: 'The amount of to_currency to buy (instead of `amount`), at most its minor units.',
  example: '100.00',
  message: moneyAmountMessage('100.00'),
};

export class CreateFxQuoteDto {
  @ApiProperty({ enum: FX_CURRENCIES, description: 'The currency sold.', example: 'NGN' })
  @IsIn(FX_CURRENCIES, { message: CURRENCY_MESSAGE })
  from_currency: string;

  @ApiProperty({
    enum: FX_CURRENCIES,
    description: 'The currency bought; must differ from from_currency (400 naming `to_currency`).',
    example: 'USD',
  })
  @IsIn(FX_CURRENCIES, { message: CURRENCY_MESSAGE })
  to_currency: string;

  @DecimalField(AMOUNT)
  amount?: string;

  @DecimalField(TO_AMOUNT)
  to_amount?: string;
}

export class CreateConversionDto {
  @ApiPropertyOptional({
    description:
      'An unexpired, unused quote (fxq_...): its currencies, amounts and rate are booked. Send it alone; without ' +
      'it, send from_currency, to_currency and one amount to convert at the current rate.',
    example: 'fxq_3kTq9Lm2XbVa7Pn0Rz4cWd',
  })
  @IsOptional()
  @IsString()
  @Length(1, 64)
  quote_id?: string;

  @ApiPropertyOptional({ enum: FX_CURRENCIES, description: 'Required without quote_id.', example: 'NGN' })
  @IsOptional()
  @IsIn(FX_CURRENCIES, { message: CURRENCY_MESSAGE })
  from_currency?: string;

  @ApiPropertyOptional({ enum: FX_CURRENCIES, description: 'Required without quote_id.', example: 'USD' })
  @IsOptional()
  @IsIn(FX_CURRENCIES, { message: CURRENCY_MESSAGE })
  to_currency?: string;

  @DecimalField(AMOUNT)
  amount?: string;

  @DecimalField(TO_AMOUNT)
  to_amount?: string;
}

export class SetFxRateDto {
  @ApiProperty({ enum: FX_CURRENCIES, example: 'USD' })
  @IsIn(FX_CURRENCIES, { message: CURRENCY_MESSAGE })
  from_currency: string;

  @ApiProperty({ enum: FX_CURRENCIES, example: 'NGN' })
  @IsIn(FX_CURRENCIES, { message: CURRENCY_MESSAGE })
  to_currency: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'Mid rate, to_currency per from_currency, up to 8 decimals; `null` goes back to the simulated walk (for the ' +
      'reverse pair too).',
    example: '1500.00',
    maxLength: 24,
  })
  @IsOptional()
  @IsString()
  @MaxLength(24)
  @Matches(/^(0|[1-9][0-9]{0,14})(\.[0-9]{1,8})?$/, {
    message: '$property must be a decimal string such as "1500.00" above zero, or null',
  })
  rate: string | null;
}

const RATE_DOC = { description: 'to_currency per from_currency, 8 decimals.', example: '0.00064103' };

export class FxRateDto {
  @ApiProperty({ enum: ['fx_rate'], example: 'fx_rate' })
  object: 'fx_rate';

  @ApiProperty({ enum: [false], example: false })
  livemode: boolean;

  @ApiProperty({ enum: FX_CURRENCIES, example: 'USD' })
  from_currency: string;

  @ApiProperty({ enum: FX_CURRENCIES, example: 'NGN' })
  to_currency: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The rate set, or null when the pair went back to the simulated walk.',
    example: '1500',
  })
  rate: string | null;
}

/** The shared fields of a quote and a conversion. */
class FxTermsDto {
  @ApiProperty({ enum: FX_CURRENCIES, example: 'NGN' })
  from_currency: string;

  @ApiProperty({ enum: FX_CURRENCIES, example: 'USD' })
  to_currency: string;

  @ApiProperty({ description: 'Sold, in from_currency\u2019s minor units.', example: '156000.00' })
  from_amount: string;

  @ApiProperty({ description: 'Bought, in to_currency\u2019s minor units.', example: '99.64' })
  to_amount: string;

  @ApiProperty({ ...RATE_DOC, description: 'mid_rate × (1 − spread_bps / 10,000), 8 decimals half-even.' })
  rate: string;

  @ApiProperty(RATE_DOC)
  mid_rate: string;

  @ApiProperty({ ...BASIS_POINTS, description: 'The tenant\u2019s spread (basis points).', example: 100 })
  spread_bps: number;
}

export class FxQuoteDto extends FxTermsDto {
  @ApiProperty({ example: 'fxq_3kTq9Lm2XbVa7Pn0Rz4cWd' })
  id?: string;

  @ApiProperty({ enum: ['fx_quote'], example: 'fx_quote' })
  object: string;

  @ApiProperty({ ...UNIX_SECONDS, nullable: true, example: 1772465400 })
  created?: number | null;

  @ApiProperty({ example: false })
  livemode: boolean;

  @ApiProperty({
    format: 'date-time',
    description: '30 seconds after creation, on the clock. After it, or once used: 422 SVC-422-007.',
    example: '2026-03-02T15:30:30.000Z',
  })
  expires_at: string;
}

export class ConversionDto extends FxTermsDto {
  @ApiProperty({ example: 'cnv_8Wm2cQx4Lr7Tb1Nv5Zk9Pa' })
  conversion_id: string;

  @ApiProperty({ format: 'uuid', example: '7f0e6c3e-3b4f-4f7e-9a55-1c2d3e4f5a6b' })
  account_id: string;

  @ApiProperty({ enum: ['executed'], example: 'executed' })
  status: string;

  @ApiProperty({ type: String, nullable: true, example: 'fxq_3kTq9Lm2XbVa7Pn0Rz4cWd' })
  quote_id: string | null;

  @ApiProperty({ format: 'date-time', description: 'Clock time.', example: '2026-03-02T15:30:00.000Z' })
  created_at: string;
}

export class ConversionsQuery extends OffsetPageQuery {
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
