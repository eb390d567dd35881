import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, IsOptional, MaxLength } from 'class-validator';
import { UNIX_SECONDS } from 'src/core/http/integer-schemas';
import {
  CORPORATE_ACTION_STATUSES,
  CORPORATE_ACTION_TYPES,
  CorporateActionStatus,
  CorporateActionType,
  ENTITLEMENT_STATUSES,
  EntitlementStatus,
} from 'src/modules/corporate-actions/corporate-action.types';

const DATE = { type: 'string', format: 'date' } as const;
const DECIMAL = { type: 'string', pattern: '^-?\\d+(\\.\\d+)?$', maxLength: 40 } as const;

export class CorporateActionDto {
  @ApiProperty({ example: 'ca_4fJx2m9QpT7aLk3Vn8ZcYw' })
  id: string;

  @ApiProperty({ enum: ['corporate_action'], example: 'corporate_action' })
  object: 'corporate_action';

  @ApiProperty({ ...UNIX_SECONDS, description: 'Unix seconds.', example: 1772370000 })
  created: number;

  @ApiProperty({ example: false })
  livemode: boolean;

  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, example: {} })
  metadata: Record<string, string>;

  @ApiProperty({ enum: CORPORATE_ACTION_TYPES, example: 'stock_split' })
  type: CorporateActionType;

  @ApiProperty({
    enum: CORPORATE_ACTION_STATUSES,
    description: '`processed` once every account of your tenant and mode is done.',
    example: 'announced',
  })
  status: CorporateActionStatus;

  @ApiProperty({ example: 'b0b6dd9d-8b9b-48a9-ba46-b9d54906e415' })
  asset_id: string;

  @ApiProperty({ example: 'AAPL' })
  symbol: string;

  @ApiProperty({ nullable: true, type: 'string', example: null })
  cusip: string | null;

  @ApiProperty({ description: 'The asset’s currency.', example: 'USD' })
  currency: string;

  @ApiProperty({ ...DATE, nullable: true, example: '2027-02-20' })
  declaration_date: string | null;

  @ApiProperty({ ...DATE, example: '2027-03-08' })
  ex_date: string;

  @ApiProperty({ ...DATE, example: '2027-03-08' })
  record_date: string;

  @ApiProperty({ ...DATE, nullable: true, example: null })
  payable_date: string | null;

  @ApiProperty({ ...DECIMAL, nullable: true, description: 'Cash per share held.', example: null })
  cash_rate: string | null;

  @ApiProperty({ ...DECIMAL, nullable: true, example: '1' })
  old_rate: string | null;

  @ApiProperty({
    ...DECIMAL,
    nullable: true,
    description: 'New shares for every old_rate held.',
    example: '4',
  })
  new_rate: string | null;

  @ApiProperty({
    nullable: true,
    type: 'string',
    description: 'A symbol change: the new ticker. A stock merger: the acquirer’s ticker.',
    example: null,
  })
  new_symbol: string | null;

  @ApiProperty({
    nullable: true,
    type: 'string',
    description: 'A stock merger: the acquirer’s asset id.',
    example: null,
  })
  new_asset_id: string | null;

  @ApiProperty({ example: 'AAPL 4-for-1 stock split' })
  description: string;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true, example: null })
  processed_at: string | null;
}

export class CorporateActionEntitlementDto {
  @ApiProperty({ enum: ['corporate_action_entitlement'], example: 'corporate_action_entitlement' })
  object: 'corporate_action_entitlement';

  @ApiProperty({ example: false })
  livemode: boolean;

  @ApiProperty({ example: 'ca_4fJx2m9QpT7aLk3Vn8ZcYw' })
  corporate_action_id: string;

  @ApiProperty({ example: '3f1c9a57-0d7e-4d5c-9a8b-2f6d1e0c4b7a' })
  account_id: string;

  @ApiProperty({ nullable: true, type: 'string', example: 'inv_4Qm1bX9kLr2TzP0aVn7c8w' })
  investor_id: string | null;

  @ApiProperty({ ...DECIMAL, description: 'Quantity held at the close before the ex date.', example: '25' })
  eligible_quantity: string;

  @ApiProperty({
    ...DECIMAL,
    description: 'Gross cash: a dividend, or a merger’s cash (cash_rate × quantity).',
    example: '0',
  })
  cash: string;

  @ApiProperty({ ...DECIMAL, example: '0' })
  withholding: string;

  @ApiProperty({ ...DECIMAL, example: '0' })
  net_cash: string;

  @ApiProperty({
    ...DECIMAL,
    description:
      'Quantity after − quantity before (a cash merger: minus the quantity; a stock merger: the acquirer’s ' +
      'shares received − the target’s shares).',
    example: '75',
  })
  quantity_change: string;

  @ApiProperty({ ...DECIMAL, example: '0' })
  cash_in_lieu: string;

  @ApiProperty({ enum: ENTITLEMENT_STATUSES, example: 'applied' })
  status: EntitlementStatus;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true, example: '2027-03-08T09:00:00.000Z' })
  applied_at: string | null;
}

/** Body of the test helper: the announcement's fields, `symbol` naming the asset. */
export class CreateTestCorporateActionDto {
  @ApiProperty({ enum: CORPORATE_ACTION_TYPES, example: 'stock_split' })
  @Allow()
  type: string;

  @ApiProperty({ description: 'Ticker, id, CUSIP or ISIN of the asset.', example: 'AAPL', maxLength: 64 })
  @Allow()
  @MaxLength(64)
  symbol: string;

  @ApiPropertyOptional({ ...DATE, example: '2027-02-20' })
  @Allow()
  declaration_date?: string;

  @ApiProperty({ ...DATE, example: '2027-03-08' })
  @Allow()
  ex_date: string;

  @ApiPropertyOptional({ ...DATE, description: 'Defaults to ex_date.', example: '2027-03-08' })
  @Allow()
  record_date?: string;

  @ApiPropertyOptional({ ...DATE, example: '2027-03-15' })
  @Allow()
  payable_date?: string;

  @ApiPropertyOptional({ ...DECIMAL, example: '0.24' })
  @Allow()
  @IsOptional()
  @MaxLength(40)
  cash_rate?: string;

  @ApiPropertyOptional({ ...DECIMAL, example: '1' })
  @Allow()
  @IsOptional()
  @MaxLength(40)
  old_rate?: string;

  @ApiPropertyOptional({ ...DECIMAL, example: '4' })
  @Allow()
  @IsOptional()
  @MaxLength(40)
  new_rate?: string;

  @ApiPropertyOptional({
    maxLength: 32,
    description: 'A symbol change: the new ticker. A stock merger: the acquirer’s ticker (or new_asset_id).',
    example: 'NEWCO',
  })
  @Allow()
  @IsOptional()
  @MaxLength(32)
  new_symbol?: string;

  @ApiPropertyOptional({
    maxLength: 64,
    description: 'A stock merger: the acquirer’s asset id (or new_symbol).',
    example: 'b0b6dd9d-8b9b-48a9-ba46-b9d54906e415',
  })
  @Allow()
  @IsOptional()
  @MaxLength(64)
  new_asset_id?: string;

  @ApiPropertyOptional({ maxLength: 500, example: 'AAPL 4-for-1 stock split' })
  @Allow()
  @IsOptional()
  @MaxLength(500)
  description?: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' }, example: {} })
  @Allow()
  metadata?: Record<string, string>;
}
