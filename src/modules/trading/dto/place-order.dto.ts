import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsOptional, IsString, Length, Matches, MaxLength } from 'class-validator';
import { IsMetadata } from 'src/core/http/metadata';
import { DecimalField } from 'src/core/money/decimal-field';
import {
  ORDER_SIDES,
  ORDER_TYPES,
  OrderSide,
  OrderType,
  TIMES_IN_FORCE,
  TimeInForce,
} from 'src/modules/trading/order-types';

const DECIMAL_MESSAGE =
  '$property must be a decimal string such as "10" or "185.25" (no sign or exponent, at most 8 decimals)';
const OrderDecimalField = (description: string, example: string) =>
  DecimalField({ required: false, description, example, message: DECIMAL_MESSAGE });

/** Body of POST /investors/{investor_id}/orders. */
export class PlaceOrderDto {
  @ApiProperty({ maxLength: 64, description: 'Ticker, asset id, CUSIP or ISIN.', example: 'AAPL' })
  @IsString()
  @Length(1, 64)
  symbol: string;

  @ApiProperty({ enum: ORDER_SIDES, example: 'buy' })
  @IsIn(ORDER_SIDES)
  side: OrderSide;

  @ApiProperty({ enum: ORDER_TYPES, example: 'limit' })
  @IsIn(ORDER_TYPES)
  type: OrderType;

  @ApiProperty({ enum: TIMES_IN_FORCE, example: 'day' })
  @IsIn(TIMES_IN_FORCE)
  time_in_force: TimeInForce;

  @OrderDecimalField(
    'Units to trade (bonds: face value, a multiple of min_increment). Send quantity or notional, not both.',
    '10',
  )
  quantity?: string;

  @OrderDecimalField('Cash amount to trade (market orders with time_in_force day only).', '500.00')
  notional?: string;

  @OrderDecimalField('Required for limit and stop_limit (bonds: percent of par).', '185.50')
  limit_price?: string;

  @OrderDecimalField('Required for stop and stop_limit.', '180.00')
  stop_price?: string;

  @OrderDecimalField('Trailing stop: percent below (sell) or above (buy) the water mark.', '5')
  trail_percent?: string;

  @OrderDecimalField('Trailing stop: price offset from the water mark.', '2.50')
  trail_price?: string;

  @ApiPropertyOptional({
    default: false,
    description:
      'Also trade in the pre- and post-market sessions (limit orders with time_in_force day only).',
    example: false,
  })
  @IsOptional()
  @IsBoolean()
  extended_hours?: boolean;

  @ApiPropertyOptional({
    maxLength: 128,
    description:
      'Your id for the order, unique per account (400 naming it when reused); generated when absent.',
    example: 'rebalance-2026-03-02-1',
  })
  @IsOptional()
  @IsString()
  @Length(1, 128)
  client_order_id?: string;

  @ApiPropertyOptional({
    type: String,
    format: 'date',
    maxLength: 10,
    description: 'Bonds only: a business day on or after the default (T+1 treasuries, T+2 corporates).',
    example: '2026-03-04',
  })
  @IsOptional()
  @IsString()
  @MaxLength(10)
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: '$property must be a date such as 2026-03-04' })
  settlement_date?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { strategy: 'dca' },
  })
  @IsOptional()
  @IsMetadata()
  metadata?: Record<string, string>;
}
