import { Money } from 'src/core/money/money';
import type { EntryInput } from 'src/modules/ledger/journal-rules';
import type { LedgerAccountRef } from 'src/modules/ledger/ledger-account-kinds';
import type { HoldInput } from 'src/modules/ledger/ledger.types';
import type { TransferEntity } from 'src/modules/transfers/entities/transfer.entity';

/**
 * The ledger side of a transfer (docs/ledger.md, recipes). A deposit is a pending credit from the
 * tenant's bank clearing account to the investor's cash; a withdrawal a hold on the investor's
 * cash towards bank clearing. Settlement posts the amount, the fee going to fee revenue.
 */
export function transferLedger(t: TransferEntity) {
  const cash: LedgerAccountRef = { kind: 'investor_cash', ownerId: t.account_id, currency: t.currency };
  const bank: LedgerAccountRef = { kind: 'bank_clearing', currency: t.currency };
  const fees: LedgerAccountRef = { kind: 'fees_revenue', currency: t.currency };
  const fee = new Money(t.fee);
  const deposit = t.type === 'deposit';
  return {
    hold(at: Date): HoldInput {
      return {
        tenantId: t.tenant_id,
        livemode: t.livemode,
        holdKey: t.transaction_id,
        kind: t.type,
        debit: deposit ? bank : cash,
        credit: deposit ? cash : bank,
        amount: t.amount,
        at,
        reference: t.transaction_id,
      };
    },
    settlementEntries(): EntryInput[] {
      const entries: EntryInput[] = deposit
        ? [
            { account: bank, direction: 'debit', amount: t.amount },
            { account: cash, direction: 'credit', amount: t.net_amount },
          ]
        : [
            { account: cash, direction: 'debit', amount: t.amount },
            { account: bank, direction: 'credit', amount: t.net_amount },
          ];
      if (fee.gt(0)) {
        entries.push({ account: fees, direction: 'credit', amount: t.fee });
      }
      return entries;
    },
  };
}
