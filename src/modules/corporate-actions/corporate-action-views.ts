import { assertUnreachable } from 'src/core/errors/assert-unreachable';
import { unixSeconds } from 'src/core/http/envelope';
import type {
  CorporateActionDto,
  CorporateActionEntitlementDto,
} from 'src/modules/corporate-actions/dto/corporate-action.dto';
import type {
  CorporateActionRow,
  CorporateActionStatus,
  CorporateActionType,
  EntitlementRow,
} from 'src/modules/corporate-actions/corporate-action.types';

const iso = (d: Date | null): string | null => (d ? new Date(d).toISOString() : null);

export function statusOf(row: CorporateActionRow): CorporateActionStatus {
  return row.canceled_at ? 'canceled' : row.processed_at ? 'processed' : 'announced';
}

/** The announcement as one tenant and mode sees it (its status and processed_at are theirs). */
export function actionView(row: CorporateActionRow, livemode: boolean): CorporateActionDto {
  return {
    id: row.id,
    object: 'corporate_action',
    created: unixSeconds(row.created_at) as number,
    livemode,
    metadata: row.metadata ?? {},
    type: row.type,
    status: statusOf(row),
    asset_id: row.asset_id,
    symbol: row.symbol,
    cusip: row.cusip,
    currency: row.currency,
    declaration_date: row.declaration_date,
    ex_date: row.ex_date,
    record_date: row.record_date,
    payable_date: row.payable_date,
    cash_rate: row.cash_rate,
    old_rate: row.old_rate,
    new_rate: row.new_rate,
    new_symbol: row.new_symbol,
    new_asset_id: row.new_asset_id,
    description: row.description,
    processed_at: iso(row.processed_at),
  };
}

export function entitlementView(row: EntitlementRow, livemode: boolean): CorporateActionEntitlementDto {
  return {
    object: 'corporate_action_entitlement',
    livemode,
    corporate_action_id: row.action_id,
    account_id: row.account_id,
    investor_id: row.investor_id,
    eligible_quantity: row.eligible_quantity,
    cash: row.cash,
    withholding: row.withholding,
    net_cash: row.net_cash,
    quantity_change: row.quantity_change,
    cash_in_lieu: row.cash_in_lieu,
    status: row.status,
    applied_at: iso(row.applied_at),
  };
}

/** A default description when the announcement carries none. */
export function describe(row: {
  type: CorporateActionType;
  symbol: string;
  cash_rate: string | null;
  old_rate: string | null;
  new_rate: string | null;
  new_symbol: string | null;
  currency: string;
}): string {
  switch (row.type) {
    case 'cash_dividend':
      return `${row.symbol} cash dividend of ${row.cash_rate} ${row.currency} per share`;
    case 'stock_split':
    case 'reverse_split':
    case 'stock_dividend':
      return `${row.symbol} ${row.type.replace('_', ' ')} ${row.new_rate} for ${row.old_rate}`;
    case 'symbol_change':
      return `${row.symbol} becomes ${row.new_symbol}`;
    case 'cash_merger':
      return `${row.symbol} cash merger at ${row.cash_rate} ${row.currency} per share`;
    case 'stock_merger':
      return (
        `${row.symbol} stock merger into ${row.new_symbol}, ${row.new_rate} for ${row.old_rate}` +
        (row.cash_rate ? ` and ${row.cash_rate} ${row.currency} per share` : '')
      );
    default:
      return assertUnreachable(row.type, 'corporate action type');
  }
}
