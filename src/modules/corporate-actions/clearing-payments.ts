import type Decimal from 'decimal.js';
import type { CorporateActionRow } from 'src/modules/corporate-actions/corporate-action.types';
import type { JournalInput } from 'src/modules/ledger/ledger.types';

/** What an action pays an account through the issuer's agent, each its own journal. */
export type ClearingPayment = 'dividend' | 'cash_in_lieu' | 'merger_cash';

/** A journal of the action's tenant and mode, for LedgerService.postMany. */
export type ActionJournal = Omit<JournalInput, 'tenantId' | 'livemode'>;

/**
 * The journal paying an account from `corporate_action_clearing` (debit) into its cash (credit),
 * keyed `ca:{action}:{account}:{what}` so a retried application posts it once, kind
 * `corporate_action.{what}`, referencing the action.
 */
export function clearingPayment(p: {
  action: CorporateActionRow;
  accountId: string;
  what: ClearingPayment;
  amount: Decimal;
  description: string;
  at: Date;
}): ActionJournal {
  const currency = p.action.currency;
  return {
    journalKey: `ca:${p.action.id}:${p.accountId}:${p.what}`,
    kind: `corporate_action.${p.what}`,
    effectiveAt: p.at,
    reference: p.action.id,
    description: `${p.description} (${p.action.id})`,
    entries: [
      { account: { kind: 'corporate_action_clearing', currency }, direction: 'debit', amount: p.amount },
      {
        account: { kind: 'investor_cash', ownerId: p.accountId, currency },
        direction: 'credit',
        amount: p.amount,
      },
    ],
  };
}
