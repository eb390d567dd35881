import type { OrderRow } from 'src/modules/trading/order-types';

/**
 * An open order row as the orders table holds it: a 100-share market day buy, accepted and
 * unfilled, with `change` applied. For specs of the engine's rules and of the orders repository.
 */
export function orderRow(change: Partial<OrderRow> = {}): OrderRow {
  return {
    id: 'ord_1',
    tenant_id: 'ten_1',
    livemode: false,
    investor_id: 'inv_1',
    account_id: 'a',
    asset_id: 'x',
    symbol: 'AAPL',
    asset_class: 'equity',
    market: 'XNAS',
    currency: 'USD',
    side: 'buy',
    type: 'market',
    time_in_force: 'day',
    quantity: '100',
    notional: null,
    limit_price: null,
    stop_price: null,
    trail_percent: null,
    trail_price: null,
    water_mark: null,
    triggered: false,
    extended_hours: false,
    client_order_id: 'c',
    status: 'accepted',
    filled_quantity: '0',
    filled_notional: '0',
    fill_count: 0,
    price_decimals: 0,
    commission: '0',
    commission_type: 'notional',
    commission_rate: '0',
    hold_amount: '0',
    hold_used: '0',
    settlement_date: null,
    reject_reason: null,
    cancel_reason: null,
    metadata: {},
    created_at: new Date(0),
    updated_at: new Date(0),
    filled_at: null,
    canceled_at: null,
    ...change,
  };
}
