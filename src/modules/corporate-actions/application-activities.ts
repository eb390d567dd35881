import Decimal from 'decimal.js';
import type { ActivityInput } from 'src/modules/activities/activity-types';
import type { CorporateActionRow } from 'src/modules/corporate-actions/corporate-action.types';
import type { Outcome } from 'src/modules/corporate-actions/entitlements.repository';

/** What one application changed in an account (the `corporate_action.applied` data, in short). */
export interface AppliedChange {
  accountId: string;
  investorId: string | null;
  quantityBefore: string;
  /** A stock merger: the acquirer's shares received. */
  quantityAfter: string;
  costBasisBefore: string;
  costBasisAfter: string;
  outcome: Outcome;
  /** A stock merger: the acquirer's symbol, in which quantityAfter is held. */
  acquirerSymbol?: string;
}

/**
 * The activities of one applied entitlement (docs/decisions.md, Activities), each matching a ledger
 * journal or position change of the same application: DIV (gross dividend) and DIVNRA
 * (withholding, negative); SPLIT (the position's quantity change, no cash) and CIL (cash in lieu
 * of the fraction); NC (a symbol change: minus the old symbol, plus the new); MA (a merger: minus
 * the target's shares with the cash paid for them, plus the acquirer's shares). Keys follow the
 * journals' (`ca:{action}:{account}:…`).
 */
export function applicationActivities(action: CorporateActionRow, change: AppliedChange): ActivityInput[] {
  const key = `ca:${action.id}:${change.accountId}`;
  const common = {
    accountId: change.accountId,
    at: change.outcome.at,
    currency: action.currency,
    symbol: action.symbol,
    corporateActionId: action.id,
  };
  switch (action.type) {
    case 'cash_dividend':
      return dividendActivities(action, change.outcome, key, common);
    case 'stock_dividend':
    case 'stock_split':
    case 'reverse_split':
      return [
        ...splitActivities(action, change.outcome, key, common),
        ...cashInLieu(action, change, key, common),
      ];
    case 'symbol_change':
      return [
        {
          ...common,
          key: `${key}:name_change:old`,
          type: 'NC',
          netAmount: 0,
          qty: new Decimal(change.quantityBefore).neg(),
          description: `Symbol change: ${action.symbol} becomes ${action.new_symbol}`,
        },
        {
          ...common,
          key: `${key}:name_change:new`,
          type: 'NC',
          netAmount: 0,
          symbol: action.new_symbol as string,
          qty: change.quantityAfter,
          description: `Symbol change: ${action.new_symbol} was ${action.symbol}`,
        },
      ];
    case 'cash_merger':
    case 'stock_merger':
      return [...mergerActivities(action, change, key, common), ...cashInLieu(action, change, key, common)];
    default: {
      const never: never = action.type;
      throw new Error(`Unknown corporate action type ${String(never)}`);
    }
  }
}

type Common = Pick<ActivityInput, 'accountId' | 'at' | 'currency' | 'symbol' | 'corporateActionId'>;

function dividendActivities(
  action: CorporateActionRow,
  outcome: Outcome,
  key: string,
  common: Common,
): ActivityInput[] {
  const activities: ActivityInput[] = [];
  if (new Decimal(outcome.cash).gt(0)) {
    activities.push({
      ...common,
      key: `${key}:dividend`,
      type: 'DIV',
      netAmount: outcome.cash,
      perShareAmount: action.cash_rate ?? undefined,
      description: `Cash dividend ${action.cash_rate} ${action.currency} per share of ${action.symbol}`,
    });
  }
  if (new Decimal(outcome.withholding).gt(0)) {
    activities.push({
      ...common,
      key: `${key}:withholding`,
      type: 'DIVNRA',
      netAmount: new Decimal(outcome.withholding).neg(),
      description: `Withholding on the ${action.symbol} dividend`,
    });
  }
  return activities;
}

function splitActivities(
  action: CorporateActionRow,
  outcome: Outcome,
  key: string,
  common: Common,
): ActivityInput[] {
  if (new Decimal(outcome.quantityChange).isZero()) {
    return [];
  }
  return [
    {
      ...common,
      key: `${key}:split`,
      type: 'SPLIT',
      netAmount: 0,
      qty: outcome.quantityChange,
      description: `${action.type} ${action.new_rate} for ${action.old_rate} of ${action.symbol}`,
    },
  ];
}

/** MA: the target's shares out with the merger's cash; a stock merger's acquirer shares in. */
function mergerActivities(
  action: CorporateActionRow,
  change: AppliedChange,
  key: string,
  common: Common,
): ActivityInput[] {
  const out: ActivityInput = {
    ...common,
    key: `${key}:merger:target`,
    type: 'MA',
    netAmount: change.outcome.cash,
    qty: new Decimal(change.quantityBefore).neg(),
    perShareAmount: action.cash_rate ?? undefined,
    description:
      action.type === 'cash_merger'
        ? `Cash merger: ${action.symbol} taken over at ${action.cash_rate} ${action.currency} per share`
        : `Stock merger: ${action.symbol} into ${change.acquirerSymbol}, ${action.new_rate} for ${action.old_rate}` +
          (action.cash_rate ? ` and ${action.cash_rate} ${action.currency} per share` : ''),
  };
  if (action.type !== 'stock_merger' || new Decimal(change.quantityAfter).isZero()) {
    return [out];
  }
  return [
    out,
    {
      ...common,
      key: `${key}:merger:acquirer`,
      type: 'MA',
      netAmount: 0,
      symbol: change.acquirerSymbol,
      qty: change.quantityAfter,
      description: `Stock merger: ${change.acquirerSymbol} received for ${action.symbol}`,
    },
  ];
}

function cashInLieu(
  action: CorporateActionRow,
  change: AppliedChange,
  key: string,
  common: Common,
): ActivityInput[] {
  if (!new Decimal(change.outcome.cashInLieu).gt(0)) {
    return [];
  }
  const symbol = change.acquirerSymbol ?? action.symbol;
  return [
    {
      ...common,
      key: `${key}:cash_in_lieu`,
      type: 'CIL',
      netAmount: change.outcome.cashInLieu,
      symbol,
      description: `Cash in lieu of a fraction of ${symbol}`,
    },
  ];
}
