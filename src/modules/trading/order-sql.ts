/**
 * SQL pieces of the orders table shared by the repository's reads and writes: the column list, the
 * canonical select list (numerics as text without trailing zeros) and the filters of open orders.
 */

export const OPEN = `status IN ('accepted', 'partially_filled')`;
export const COLUMNS = [
  'id',
  'tenant_id',
  'livemode',
  'investor_id',
  'account_id',
  'asset_id',
  'symbol',
  'asset_class',
  'market',
  'currency',
  'side',
  'type',
  'time_in_force',
  'quantity',
  'notional',
  'limit_price',
  'stop_price',
  'trail_percent',
  'trail_price',
  'water_mark',
  'triggered',
  'extended_hours',
  'client_order_id',
  'status',
  'filled_quantity',
  'filled_notional',
  'fill_count',
  'price_decimals',
  'commission',
  'commission_type',
  'commission_rate',
  'hold_amount',
  'hold_used',
  'settlement_date',
  'reject_reason',
  'cancel_reason',
  'metadata',
  'created_at',
  'updated_at',
  'filled_at',
  'canceled_at',
] as const;
// Numerics are read as canonical text (no trailing zeros), dates as 'YYYY-MM-DD'.
export const SELECT = COLUMNS.map((c) =>
  [
    'quantity',
    'notional',
    'limit_price',
    'stop_price',
    'trail_percent',
    'trail_price',
    'water_mark',
    'filled_quantity',
    'filled_notional',
    'commission',
    'commission_rate',
    'hold_amount',
    'hold_used',
  ].includes(c)
    ? `trim_scale("${c}")::text AS "${c}"`
    : c === 'settlement_date'
      ? `"settlement_date"::text AS "settlement_date"`
      : `"${c}"`,
).join(', ');

/** A price tick of a session phase in which orders trade: what the tick's read filters on. */
export interface TickQuote {
  phase: 'regular' | 'extended';
  last: string;
  bid: string;
  ask: string;
}

/**
 * The orders a price tick certainly leaves unchanged (`decide` answers 'none' with no water mark or
 * trigger change), with $4 the phase, $5 last, $6 bid, $7 ask: orders not eligible in the phase
 * (opg/cls in the regular session; without extended_hours in pre/post), resting limits the quote does
 * not reach, and stops or stop limits the last price has not triggered. ioc and fok orders (canceled
 * when not marketable), market orders and trailing stops (their water mark moves) are always read.
 * order-tick-filter.medium-spec.ts checks it against `decide` on random orders and quotes.
 */
export const TICK_UNCHANGED = `coalesce(
  CASE WHEN $4 = 'regular' THEN "time_in_force" IN ('opg', 'cls') ELSE NOT "extended_hours" END
  OR ("time_in_force" NOT IN ('ioc', 'fok') AND (
    ("type" = 'limit'
      AND CASE WHEN "side" = 'buy' THEN "limit_price" < $7::numeric ELSE "limit_price" > $6::numeric END)
    OR ("type" IN ('stop', 'stop_limit') AND NOT "triggered"
      AND CASE WHEN "side" = 'buy' THEN "stop_price" > $5::numeric ELSE "stop_price" < $5::numeric END))),
  false)`;
