import type Decimal from 'decimal.js';
import type { EntryInput } from 'src/modules/ledger/journal-rules';
import type { LedgerAccountRef, LedgerScope } from 'src/modules/ledger/ledger-account-kinds';
import type { HoldKind, HoldStatus } from 'src/modules/ledger/entities/ledger-hold.entity';

export interface JournalInput extends LedgerScope {
  /** Unique per tenant and mode, chosen by the poster: a repeat posts nothing and returns the first. */
  journalKey: string;
  /** What the journal records, e.g. `deposit.settled`, `order.fill`, `interest.payout`. */
  kind: string;
  /** Clock time it takes effect (the job's `now`, or ClockService.now). */
  effectiveAt: Date;
  description?: string;
  /** The business object it records (txn_..., ord_...). */
  reference?: string;
  entries: EntryInput[];
}

export interface PostedJournal {
  id: string;
  journalKey: string;
  /** False when the key was posted before: nothing was written this time. */
  created: boolean;
}

export interface HoldInput extends LedgerScope {
  /** Unique per tenant and mode: holding the same key again holds nothing more. */
  holdKey: string;
  kind: HoldKind;
  /** Where the money leaves when posted (the investor's cash for a withdrawal or buy). */
  debit: LedgerAccountRef;
  /** Where it arrives when posted (the investor's cash for a deposit). */
  credit: LedgerAccountRef;
  amount: string | Decimal;
  at: Date;
  reference?: string;
}

export interface PostHoldInput extends LedgerScope {
  holdKey: string;
  /** How much of the hold the journal uses (at most what is still pending). */
  amount: string | Decimal;
  /** Release whatever stays pending after this post (default true); false keeps it for later posts. */
  releaseRest?: boolean;
  journal: Omit<JournalInput, 'tenantId' | 'livemode'>;
}

export interface VoidHoldInput extends LedgerScope {
  holdKey: string;
  at: Date;
}

export interface HoldView {
  id: string;
  holdKey: string;
  kind: HoldKind;
  status: HoldStatus;
  currency: string;
  amount: Decimal;
  pendingAmount: Decimal;
  reference: string | null;
}

/** Cash of one investment account in one currency, derived from the ledger. */
export interface CashBalance {
  currency: string;
  /** Settled cash: posted credits minus posted debits. */
  cash: Decimal;
  /** Cash minus every hold (withdrawals and open buy orders): buying power. */
  available: Decimal;
  /** Deposits initiated and not yet settled. */
  pendingDeposits: Decimal;
  withdrawalHolds: Decimal;
  orderHolds: Decimal;
}

/** Error-message options of writes that may be refused for lack of funds. */
export interface FundsOptions {
  /** The request field an insufficient-funds refusal names (422 SVC-422-002), e.g. `amount`. */
  insufficientFundsParam?: string;
}
