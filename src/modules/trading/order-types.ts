import type Decimal from 'decimal.js';

export const ORDER_SIDES = ['buy', 'sell'] as const;
export type OrderSide = (typeof ORDER_SIDES)[number];
export const ORDER_TYPES = ['market', 'limit', 'stop', 'stop_limit', 'trailing_stop'] as const;
export type OrderType = (typeof ORDER_TYPES)[number];
export const TIMES_IN_FORCE = ['day', 'gtc', 'opg', 'cls', 'ioc', 'fok'] as const;
export type TimeInForce = (typeof TIMES_IN_FORCE)[number];
export const ORDER_STATUSES = ['accepted', 'partially_filled', 'filled', 'canceled', 'rejected'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export const OPEN_STATUSES: readonly OrderStatus[] = ['accepted', 'partially_filled'];
export const COMMISSION_TYPES = ['notional', 'qty', 'bps'] as const;
export type CommissionType = (typeof COMMISSION_TYPES)[number];

/** One order row as stored (numeric columns as text). */
export interface OrderRow {
  id: string;
  tenant_id: string;
  livemode: boolean;
  /** Null for the tenant's firm account's orders. */
  investor_id: string | null;
  account_id: string;
  asset_id: string;
  symbol: string;
  asset_class: string;
  market: string;
  currency: string;
  side: OrderSide;
  type: OrderType;
  time_in_force: TimeInForce;
  quantity: string | null;
  notional: string | null;
  limit_price: string | null;
  stop_price: string | null;
  trail_percent: string | null;
  trail_price: string | null;
  water_mark: string | null;
  triggered: boolean;
  extended_hours: boolean;
  client_order_id: string;
  status: OrderStatus;
  filled_quantity: string;
  /** Σ quantity × price of the executions (exact: 16 decimals). */
  filled_notional: string;
  /** The most decimals of any execution price of the order (the average price's precision). */
  price_decimals: number;
  fill_count: number;
  commission: string;
  commission_type: CommissionType;
  commission_rate: string;
  /** Buys: cash held at acceptance; sells: units reserved. */
  hold_amount: string;
  /** How much of the hold fills have used (cash posted from it, or units sold). */
  hold_used: string;
  settlement_date: string | null;
  reject_reason: string | null;
  cancel_reason: string | null;
  metadata: Record<string, string>;
  created_at: Date;
  updated_at: Date;
  filled_at: Date | null;
  canceled_at: Date | null;
}

export interface ExecutionRow {
  id: string;
  order_id: string;
  sequence: number;
  account_id: string;
  asset_id: string;
  symbol: string;
  side: OrderSide;
  quantity: string;
  price: string;
  gross_amount: string;
  accrued_interest: string;
  commission: string;
  net_amount: string;
  price_source: string;
  created_at: Date;
}

export interface PositionRow {
  id: string;
  tenant_id: string;
  livemode: boolean;
  account_id: string;
  asset_id: string;
  symbol: string;
  asset_class: string;
  currency: string;
  quantity: string;
  held_quantity: string;
  total_cost_basis: string;
  created_at: Date;
  updated_at: Date;
  last_transaction_at: Date;
}

/** What the engine's rules see of a quote. */
export interface QuoteView {
  last: Decimal;
  bid: Decimal;
  ask: Decimal;
  bidSize: Decimal;
  askSize: Decimal;
  source: string;
}

export function isBondClass(assetClass: string): boolean {
  return assetClass === 'bond' || assetClass === 'bill' || assetClass === 'note';
}
