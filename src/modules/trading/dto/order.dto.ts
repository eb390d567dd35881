import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  COMMISSION_TYPES,
  ORDER_SIDES,
  ORDER_STATUSES,
  ORDER_TYPES,
  TIMES_IN_FORCE,
} from 'src/modules/trading/order-types';

const ISO = { format: 'date-time', example: '2026-03-02T15:30:00.000Z' } as const;
const ISO_OR_NULL = { type: String, format: 'date-time', nullable: true, example: null } as const;
const DEC_OR_NULL = (example: string | null, description?: string) =>
  ({ type: String, nullable: true, example, ...(description ? { description } : {}) }) as const;

/** Fields both views of an order share. */
class OrderCommonDto {
  @ApiProperty({ example: 'ord_Xb4mT9qLc2Vn7Rz0Pk5WaE' })
  id: string;

  @ApiProperty({ format: 'uuid', example: '7f0e6c3e-3b4f-4f7e-9a55-1c2d3e4f5a6b' })
  account_id: string;

  @ApiProperty({ example: 'AAPL' })
  symbol: string;

  @ApiProperty({ description: 'ISO 4217 trading currency.', example: 'USD' })
  currency: string;

  @ApiProperty({ enum: ORDER_SIDES, example: 'buy' })
  side: string;

  @ApiProperty({ enum: ORDER_TYPES, example: 'limit' })
  type: string;

  @ApiProperty({ enum: TIMES_IN_FORCE, example: 'day' })
  time_in_force: string;

  @ApiProperty(DEC_OR_NULL('185.5', 'limit and stop_limit orders (bonds: percent of par); null otherwise.'))
  limit_price: string | null;

  @ApiProperty(
    DEC_OR_NULL(
      null,
      'stop and stop_limit orders: the stop they were placed with. trailing_stop: the current stop, ' +
        'hwm minus the trail for sells (hwm × (1 − trail_percent / 100) or hwm − trail_price), hwm plus ' +
        'the trail for buys, rounded half-even to 8 decimals (the trigger compares the unrounded value); ' +
        'null until the mark is set (the first evaluation in a regular session). Null for other orders.',
    ),
  )
  stop_price: string | null;

  @ApiProperty(DEC_OR_NULL(null, 'Trailing stop by percent; null otherwise.'))
  trail_percent: string | null;

  @ApiProperty(DEC_OR_NULL(null, 'Trailing stop by price offset; null otherwise.'))
  trail_price: string | null;

  @ApiProperty(
    DEC_OR_NULL(
      null,
      'trailing_stop only: the high-water mark, the highest last price seen in regular sessions since ' +
        'acceptance (buys: the lowest), which the stop follows; it moves on every price tick that passes ' +
        'it. Null before the first evaluation in a regular session and for other orders.',
    ),
  )
  hwm: string | null;

  @ApiProperty({ example: false })
  extended_hours: boolean;

  @ApiProperty({
    description: 'Client-supplied tracking id, unique per account (generated when not sent).',
    example: 'rebalance-2026-03-02-1',
  })
  client_order_id: string;

  @ApiProperty({ enum: ORDER_STATUSES, example: 'accepted' })
  status: string;

  @ApiProperty({
    description:
      'Average fill price: the volume-weighted price of the executions (Σ quantity × price / Σ quantity), ' +
      'rounded half-even to the most decimals any execution price has (one fill at 230.06 reads "230.06"); ' +
      '"0" while nothing is filled.',
    example: '0',
  })
  average_price: string;

  @ApiProperty({ description: 'Commission charged so far, in the currency.', example: '0' })
  commission: string;

  @ApiProperty({ enum: COMMISSION_TYPES, example: 'notional' })
  commission_type: string;

  @ApiProperty(ISO)
  submitted_at: string;

  @ApiProperty({ ...ISO, description: 'Last change (fills, cancel): the key of `updated_since` syncing.' })
  updated_at: string;

  @ApiProperty(ISO_OR_NULL)
  filled_at: string | null;

  @ApiProperty(ISO_OR_NULL)
  canceled_at: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Why the engine rejected the order.',
    example: null,
  })
  reject_reason: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Why the order ended canceled: on request, at the close (day), ioc/fok rest, auction.',
    example: null,
  })
  cancel_reason: string | null;
}

/** Spec, Order (account-style record): `qty`, `filled_qty`, `remaining_qty`. */
export class AccountOrderDto extends OrderCommonDto {
  @ApiPropertyOptional({
    description: 'Present for quantity-based orders (bonds: face value).',
    example: '10',
  })
  qty?: string;

  @ApiPropertyOptional({ description: 'Present for notional-based orders.', example: '500.00' })
  notional?: string;

  @ApiProperty({ example: '0' })
  filled_qty: string;

  @ApiProperty(DEC_OR_NULL('10', 'qty − filled_qty; null for an open notional order.'))
  remaining_qty: string | null;
}

/** The envelope-style order (docs/decisions.md, Trading and positions): `quantity`, `filled_quantity`. */
export class OrderDto extends OrderCommonDto {
  @ApiProperty({ enum: ['order'], example: 'order' })
  object: 'order';

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

  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, example: { strategy: 'dca' } })
  metadata: Record<string, string>;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'null for an order of the tenant\u2019s firm account.',
    example: 'inv_4Qm1bX9kLr2TzP0aVn7c8w',
  })
  investor_id: string | null;

  @ApiProperty({ example: 'b0b6dd9d-8b9b-4f3a-9c0f-2a1b3c4d5e6f' })
  asset_id: string;

  @ApiPropertyOptional({
    description: 'Present for quantity-based orders (bonds: face value).',
    example: '10',
  })
  quantity?: string;

  @ApiPropertyOptional({ description: 'Present for notional-based orders.', example: '500.00' })
  notional?: string;

  @ApiProperty({ example: '0' })
  filled_quantity: string;

  @ApiProperty({
    type: String,
    format: 'date',
    nullable: true,
    description: 'Bonds: settlement date; null otherwise.',
    example: null,
  })
  settlement_date: string | null;
}

/** One fill of an order, with the price it was taken from. */
export class ExecutionDto {
  @ApiProperty({ example: 'exe_Lq2Vn7Rz0Pk5WaEXb4mT9c' })
  id: string;

  @ApiProperty({ enum: ['execution'], example: 'execution' })
  object: 'execution';

  @ApiProperty({ description: 'true only for executions of live-mode orders.', example: false })
  livemode: boolean;

  @ApiProperty({ example: 'ord_Xb4mT9qLc2Vn7Rz0Pk5WaE' })
  order_id: string;

  @ApiProperty({ example: 'AAPL' })
  symbol: string;

  @ApiProperty({ enum: ORDER_SIDES, example: 'buy' })
  side: string;

  @ApiProperty({ example: '10' })
  quantity: string;

  @ApiProperty({ description: 'Fill price (bonds: percent of par).', example: '185.52' })
  price: string;

  @ApiProperty({
    description: 'quantity × price (bonds: face × price / 100) in the currency.',
    example: '1855.20',
  })
  gross_amount: string;

  @ApiProperty({
    description: 'Bonds: accrued interest to settlement paid or received; "0" otherwise.',
    example: '0',
  })
  accrued_interest: string;

  @ApiProperty({ example: '0' })
  commission: string;

  @ApiProperty({
    description: 'Cash moved: gross + accrued + commission for buys, gross + accrued − commission for sells.',
    example: '1855.20',
  })
  net_amount: string;

  @ApiProperty({
    description:
      'Where the price came from: `simulated` (the sandbox price engine) or `override` (the price helper).',
    example: 'override',
  })
  price_source: string;

  @ApiProperty(ISO)
  executed_at: string;
}

/** Spec, Position, plus market value and unrealized P/L at the current price. */
export class PositionDto {
  @ApiProperty({ example: 'pos_Wk7ZpEQv3nL8cT2mXa9Rb4' })
  id: string;

  @ApiProperty({ format: 'uuid', example: '7f0e6c3e-3b4f-4f7e-9a55-1c2d3e4f5a6b' })
  account_id: string;

  @ApiProperty({ example: 'AAPL' })
  symbol: string;

  @ApiProperty({ example: 'b0b6dd9d-8b9b-4f3a-9c0f-2a1b3c4d5e6f' })
  asset_id: string;

  @ApiProperty({ example: 'USD' })
  currency: string;

  @ApiProperty({ description: 'Held quantity (bonds: face value).', example: '10' })
  quantity: string;

  @ApiProperty({ description: 'Weighted average cost per unit (bonds: percent of par).', example: '185.52' })
  average_cost_basis: string;

  @ApiProperty({
    description: 'What the held quantity cost (commissions and accrued interest excluded).',
    example: '1855.20',
  })
  total_cost_basis: string;

  @ApiProperty({
    description: 'Last price from the price engine (bonds: percent of par).',
    example: '190.00',
  })
  current_price: string;

  @ApiProperty({ example: '1900.00' })
  market_value: string;

  @ApiProperty({ description: 'market_value − total_cost_basis.', example: '44.80' })
  unrealized_pl: string;

  @ApiProperty(ISO)
  last_transaction_at: string;

  @ApiProperty(ISO)
  created_at: string;

  @ApiProperty(ISO)
  updated_at: string;
}
