import Decimal from 'decimal.js';
import { unixSeconds } from 'src/core/http/envelope';
import { minorUnits } from 'src/core/money/currencies';
import { Money } from 'src/core/money/money';
import { trailingStop } from 'src/modules/trading/engine/fill-rules';
import type { AccountOrderDto, ExecutionDto, OrderDto, PositionDto } from 'src/modules/trading/dto/order.dto';
import {
  isBondClass,
  type ExecutionRow,
  type OrderRow,
  type PositionRow,
} from 'src/modules/trading/order-types';

const iso = (d: Date | null): string | null => (d ? new Date(d).toISOString() : null);

/**
 * Average fill price: the volume-weighted price of the executions (Σ quantity × price / Σ quantity,
 * exact), rounded half-even to the most decimals any of their prices has (one fill at 230.06 reads
 * "230.06"); "0" before any fill.
 */
export function averagePrice(
  order: Pick<OrderRow, 'filled_quantity' | 'filled_notional' | 'price_decimals'>,
): string {
  const filled = new Money(order.filled_quantity);
  return filled.isZero()
    ? '0'
    : new Money(order.filled_notional)
        .div(filled)
        .toDecimalPlaces(order.price_decimals, Decimal.ROUND_HALF_EVEN)
        .toFixed();
}

/**
 * A trailing stop's current stop price: the high-water mark (sells; the low-water mark for buys)
 * minus (plus) the trail, rounded half-even to 8 decimals; null until the mark is set (the first
 * evaluation in a regular session). Other orders: the stop price they were placed with.
 */
export function currentStopPrice(order: OrderRow): string | null {
  if (order.type !== 'trailing_stop') {
    return order.stop_price;
  }
  return order.water_mark === null
    ? null
    : trailingStop(order, new Money(order.water_mark)).toDecimalPlaces(8, Decimal.ROUND_HALF_EVEN).toFixed();
}

function common(order: OrderRow) {
  return {
    id: order.id,
    account_id: order.account_id,
    symbol: order.symbol,
    currency: order.currency,
    side: order.side,
    type: order.type,
    time_in_force: order.time_in_force,
    limit_price: order.limit_price,
    stop_price: currentStopPrice(order),
    trail_percent: order.trail_percent,
    trail_price: order.trail_price,
    hwm: order.type === 'trailing_stop' ? order.water_mark : null,
    extended_hours: order.extended_hours,
    client_order_id: order.client_order_id,
    status: order.status,
    average_price: averagePrice(order),
    commission: order.commission,
    commission_type: order.commission_type,
    submitted_at: iso(order.created_at) as string,
    updated_at: iso(order.updated_at) as string,
    filled_at: iso(order.filled_at),
    canceled_at: iso(order.canceled_at),
    reject_reason: order.reject_reason,
    cancel_reason: order.cancel_reason,
  };
}

function remaining(order: OrderRow): string | null {
  if (order.quantity !== null) {
    return new Money(order.quantity).minus(order.filled_quantity).toFixed();
  }
  return order.status === 'accepted' || order.status === 'partially_filled' ? null : '0';
}

/** Spec, Order (account-style record). */
export function accountOrder(order: OrderRow): AccountOrderDto {
  const { id, account_id, symbol, currency, ...rest } = common(order);
  return {
    id,
    account_id,
    symbol,
    currency,
    ...(order.quantity !== null ? { qty: order.quantity } : { notional: order.notional as string }),
    ...rest,
    filled_qty: order.filled_quantity,
    remaining_qty: remaining(order),
  };
}

/** The envelope-style order (docs/decisions.md, Trading and positions); also the data of every order event. */
export function envelopeOrder(order: OrderRow): OrderDto {
  const { id, ...rest } = common(order);
  return {
    id,
    object: 'order',
    created: unixSeconds(order.created_at) as number,
    livemode: order.livemode,
    metadata: order.metadata ?? {},
    investor_id: order.investor_id,
    asset_id: order.asset_id,
    ...(order.quantity !== null ? { quantity: order.quantity } : { notional: order.notional as string }),
    ...rest,
    filled_quantity: order.filled_quantity,
    settlement_date: order.settlement_date,
  };
}

export function executionView(e: ExecutionRow, livemode: boolean): ExecutionDto {
  return {
    id: e.id,
    object: 'execution',
    livemode,
    order_id: e.order_id,
    symbol: e.symbol,
    side: e.side,
    quantity: e.quantity,
    price: e.price,
    gross_amount: e.gross_amount,
    accrued_interest: e.accrued_interest,
    commission: e.commission,
    net_amount: e.net_amount,
    price_source: e.price_source,
    executed_at: iso(e.created_at) as string,
  };
}

/** Value of `quantity` units at `price` (bonds: face × percent of par / 100). */
export function valueOf(assetClass: string, quantity: Decimal.Value, price: Decimal.Value): Decimal {
  const value = new Money(quantity).times(price);
  return isBondClass(assetClass) ? value.div(100) : value;
}

/** Spec, Position, valued at `price` (the price engine's last). */
export function positionView(p: PositionRow, price: Decimal): PositionDto {
  const dp = minorUnits(p.currency);
  const quantity = new Money(p.quantity);
  const cost = new Money(p.total_cost_basis);
  const perUnit = cost.div(quantity).times(isBondClass(p.asset_class) ? 100 : 1);
  const marketValue = valueOf(p.asset_class, quantity, price).toDecimalPlaces(dp, Decimal.ROUND_HALF_EVEN);
  const roundedCost = cost.toDecimalPlaces(dp, Decimal.ROUND_HALF_EVEN);
  return {
    id: p.id,
    account_id: p.account_id,
    symbol: p.symbol,
    asset_id: p.asset_id,
    currency: p.currency,
    quantity: p.quantity,
    average_cost_basis: perUnit.toDecimalPlaces(8, Decimal.ROUND_HALF_EVEN).toFixed(),
    total_cost_basis: roundedCost.toFixed(dp),
    current_price: price.toFixed(),
    market_value: marketValue.toFixed(dp),
    unrealized_pl: marketValue.minus(roundedCost).toFixed(dp),
    last_transaction_at: iso(p.last_transaction_at) as string,
    created_at: iso(p.created_at) as string,
    updated_at: iso(p.updated_at) as string,
  };
}
