import { newId } from 'src/core/ids/ids';
import { Money } from 'src/core/money/money';
import type { AssetQueryRow } from 'src/modules/assets/asset-queries';
import type { CommissionTerms } from 'src/modules/trading/commissions';
import type { PlaceOrderDto } from 'src/modules/trading/dto/place-order.dto';
import type { OrderRow } from 'src/modules/trading/order-types';

/** What a new order row is made of: who places it, on which account and asset, on what terms. */
export interface NewOrder {
  scope: { tenantId: string; livemode: boolean };
  account: { id: string; investor_id: string | null };
  asset: AssetQueryRow;
  body: PlaceOrderDto;
  commission: CommissionTerms;
  settlementDate: string | null;
  now: Date;
}

/** A decimal field as stored: canonical text, or null when not sent. */
function decimal(value: string | undefined): string | null {
  return value === undefined ? null : new Money(value).toFixed();
}

/**
 * The row of an accepted order, before anything is held: nothing filled, no commission yet, the
 * tenant's commission terms of the moment, and a client_order_id drawn when none was sent.
 * `hold_amount` is set once the quote and the position are known.
 */
export function buildOrderRow({
  scope,
  account,
  asset,
  body,
  commission,
  settlementDate,
  now,
}: NewOrder): OrderRow {
  return {
    id: newId('order'),
    tenant_id: scope.tenantId,
    livemode: scope.livemode,
    investor_id: account.investor_id,
    account_id: account.id,
    asset_id: asset.id,
    symbol: asset.symbol,
    asset_class: asset.class,
    market: asset.market,
    currency: asset.currency,
    side: body.side,
    type: body.type,
    time_in_force: body.time_in_force,
    quantity: decimal(body.quantity),
    notional: decimal(body.notional),
    limit_price: decimal(body.limit_price),
    stop_price: decimal(body.stop_price),
    trail_percent: decimal(body.trail_percent),
    trail_price: decimal(body.trail_price),
    water_mark: null,
    triggered: false,
    extended_hours: body.extended_hours ?? false,
    client_order_id: body.client_order_id ?? newId('order').slice(4),
    status: 'accepted',
    filled_quantity: '0',
    filled_notional: '0',
    fill_count: 0,
    price_decimals: 0,
    commission: '0',
    commission_type: commission.type,
    commission_rate: commission.amount.toFixed(),
    hold_amount: '0',
    hold_used: '0',
    settlement_date: settlementDate,
    reject_reason: null,
    cancel_reason: null,
    metadata: body.metadata ?? {},
    created_at: now,
    updated_at: now,
    filled_at: null,
    canceled_at: null,
  };
}
