import type { ActivityInput } from 'src/modules/activities/activity-types';
import type { FxTerms } from 'src/modules/fx/fx-terms';

/**
 * A conversion's two FXC activities (docs/decisions.md, Activities): the wallet it sold from (cash out)
 * and the one it bought into (cash in), so each currency's activities sum to its ledger change.
 */
export function conversionActivities(
  accountId: string,
  conversionId: string,
  terms: FxTerms,
  at: Date,
): ActivityInput[] {
  const { from, to } = terms.pair;
  const description = `Converted ${terms.fromAmount.toFixed()} ${from} to ${terms.toAmount.toFixed()} ${to} at ${terms.rate.toFixed()}`;
  const common = { accountId, type: 'FXC' as const, at, conversionId, price: terms.rate, description };
  return [
    { ...common, key: `${conversionId}:from`, currency: from, netAmount: terms.fromAmount.neg() },
    { ...common, key: `${conversionId}:to`, currency: to, netAmount: terms.toAmount },
  ];
}
