import { assertUnreachable } from 'src/core/errors/assert-unreachable';

/** Corporate action types (docs/decisions.md, Corporate actions). */
export const CORPORATE_ACTION_TYPES = [
  'cash_dividend',
  'stock_dividend',
  'stock_split',
  'reverse_split',
  'symbol_change',
  'cash_merger',
  'stock_merger',
] as const;
export type CorporateActionType = (typeof CORPORATE_ACTION_TYPES)[number];

export const CORPORATE_ACTION_STATUSES = ['announced', 'processed', 'canceled'] as const;
export type CorporateActionStatus = (typeof CORPORATE_ACTION_STATUSES)[number];

export const ENTITLEMENT_STATUSES = ['pending', 'applied', 'skipped'] as const;
export type EntitlementStatus = (typeof ENTITLEMENT_STATUSES)[number];

/** Ratio types: quantity × new_rate / old_rate. */
export function isRatioType(type: CorporateActionType): boolean {
  switch (type) {
    case 'stock_dividend':
    case 'stock_split':
    case 'reverse_split':
      return true;
    case 'cash_dividend':
    case 'symbol_change':
    case 'cash_merger':
    case 'stock_merger':
      return false;
    default:
      return assertUnreachable(type, 'corporate action type');
  }
}

/**
 * Whether applying the type cancels the asset's open orders (docs/decisions.md: a split, reverse split,
 * stock dividend or merger does; a symbol change and a cash dividend leave them open).
 */
export function cancelsOpenOrders(type: CorporateActionType): boolean {
  switch (type) {
    case 'stock_dividend':
    case 'stock_split':
    case 'reverse_split':
    case 'cash_merger':
    case 'stock_merger':
      return true;
    case 'cash_dividend':
    case 'symbol_change':
      return false;
    default: {
      const never: never = type;
      throw new Error(`Unknown corporate action type ${String(never)}`);
    }
  }
}

/** A stored announcement (`corporate_actions` row, numerics as text). */
export interface CorporateActionRow {
  id: string;
  tenant_id: string | null;
  type: CorporateActionType;
  canceled_at: Date | null;
  asset_id: string;
  symbol: string;
  cusip: string | null;
  currency: string;
  market: string;
  declaration_date: string | null;
  ex_date: string;
  record_date: string;
  payable_date: string | null;
  cash_rate: string | null;
  old_rate: string | null;
  new_rate: string | null;
  new_symbol: string | null;
  new_asset_id: string | null;
  description: string;
  metadata: Record<string, string>;
  created_at: Date;
  updated_at: Date;
  /** Of the reader's tenant and mode (corporate_action_runs). */
  processed_at: Date | null;
  started: boolean;
}

/** The terms of an announcement, validated (decimal strings, ISO dates). */
export interface CorporateActionTerms {
  type: CorporateActionType;
  declaration_date: string | null;
  ex_date: string;
  record_date: string;
  payable_date: string | null;
  cash_rate: string | null;
  old_rate: string | null;
  new_rate: string | null;
  new_symbol: string | null;
  new_asset_id: string | null;
  description: string | null;
  metadata: Record<string, string>;
}

export interface EntitlementRow {
  action_id: string;
  account_id: string;
  investor_id: string | null;
  eligible_quantity: string;
  cash: string;
  withholding: string;
  net_cash: string;
  quantity_change: string;
  cash_in_lieu: string;
  status: EntitlementStatus;
  applied_at: Date | null;
}
