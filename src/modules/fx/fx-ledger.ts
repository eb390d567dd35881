import type { JournalInput } from 'src/modules/ledger/ledger.types';
import type { LedgerScope } from 'src/modules/ledger/ledger-account-kinds';
import type { EntryInput } from 'src/modules/ledger/journal-rules';
import type { FxTerms } from 'src/modules/fx/fx-terms';

/**
 * One journal per conversion, each currency summing to zero: the account's from_currency cash goes
 * to the FX clearing account of that currency; the FX clearing account of to_currency pays the
 * account's to_currency cash and the spread (the tenant's revenue, in to_currency).
 */
export function conversionJournal(
  scope: LedgerScope,
  accountId: string,
  conversionId: string,
  terms: FxTerms,
  at: Date,
): JournalInput {
  const { from, to } = terms.pair;
  const entries: EntryInput[] = [
    {
      account: { kind: 'investor_cash', ownerId: accountId, currency: from },
      direction: 'debit',
      amount: terms.fromAmount,
    },
    { account: { kind: 'fx_clearing', currency: from }, direction: 'credit', amount: terms.fromAmount },
    {
      account: { kind: 'fx_clearing', currency: to },
      direction: 'debit',
      amount: terms.toAmount.plus(terms.spreadAmount),
    },
    {
      account: { kind: 'investor_cash', ownerId: accountId, currency: to },
      direction: 'credit',
      amount: terms.toAmount,
    },
  ];
  if (terms.spreadAmount.gt(0)) {
    entries.push({
      account: { kind: 'fx_spread_revenue', currency: to },
      direction: 'credit',
      amount: terms.spreadAmount,
    });
  }
  return {
    ...scope,
    journalKey: `conversion:${conversionId}`,
    kind: 'fx.conversion',
    effectiveAt: at,
    reference: conversionId,
    description:
      `FXC ${terms.fromAmount.toFixed()} ${from} -> ${terms.toAmount.toFixed()} ${to} at ${terms.rate.toFixed()} ` +
      `(mid ${terms.midRate.toFixed()}, spread ${terms.spreadBps} bps = ${terms.spreadAmount.toFixed()} ${to})`,
    entries,
  };
}
