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
  /**
   * The fraction sold for cash in lieu (units after the ratio, 8 decimals) and the price per unit it
   * was paid at; absent when none was.
   */
  fractionSold?: { quantity: string; price: string };
}

/** What AppliedChange.fractionSold says of an outcome paying cash in lieu (undefined when it paid none). */
export function fractionSoldOf(result: {
  fraction: Decimal;
  fractionPrice: Decimal;
}): AppliedChange['fractionSold'] {
  return result.fraction.gt(0)
    ? { quantity: result.fraction.toFixed(), price: result.fractionPrice.toFixed() }
    : undefined;
}

/** Units after the ratio: those kept (quantityAfter) and the fraction sold for cash in lieu. */
function unitsConverted(change: AppliedChange): Decimal {
  return new Decimal(change.quantityAfter).plus(change.fractionSold?.quantity ?? 0);
}

/**
 * The activities of one applied entitlement (docs/decisions.md, Activities), each matching a ledger
 * journal or position change of the same application: DIV (gross dividend) and DIVNRA
 * (withholding, negative); SPLIT (the ratio's quantity change, no cash) and CIL (the fraction sold
 * for cash in lieu: minus its units at the price paid, as a sell's FILL); NC (a symbol change: minus
 * the old symbol, plus the new); MA (a merger: minus the target's shares with the cash paid for
 * them, plus the acquirer's shares and the fraction then sold). Keys follow the journals'
 * (`ca:{action}:{account}:…`). The units of an account's activities add up to its positions.
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
      return [...splitActivities(action, change, key, common), ...cashInLieu(action, change, key, common)];
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

/** SPLIT: quantity before to the units after the ratio, the fraction then sold by the CIL among them. */
function splitActivities(
  action: CorporateActionRow,
  change: AppliedChange,
  key: string,
  common: Common,
): ActivityInput[] {
  const quantityChange = unitsConverted(change).minus(change.quantityBefore);
  if (quantityChange.isZero()) {
    return [];
  }
  return [
    {
      ...common,
      key: `${key}:split`,
      type: 'SPLIT',
      netAmount: 0,
      qty: quantityChange,
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
  const acquired = unitsConverted(change);
  if (action.type !== 'stock_merger' || acquired.isZero()) {
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
      qty: acquired,
      description: `Stock merger: ${change.acquirerSymbol} received for ${action.symbol}`,
    },
  ];
}

/** CIL: the fraction sold, its units out at the price paid and the cash in (a sale, as a sell's FILL). */
function cashInLieu(
  action: CorporateActionRow,
  change: AppliedChange,
  key: string,
  common: Common,
): ActivityInput[] {
  const sold = change.fractionSold;
  if (!sold || !new Decimal(sold.quantity).gt(0)) {
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
      qty: new Decimal(sold.quantity).neg(),
      price: sold.price,
      perShareAmount: sold.price,
      description: `Cash in lieu of ${sold.quantity} ${symbol} at ${sold.price} ${action.currency}`,
    },
  ];
}
