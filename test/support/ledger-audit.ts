import type { LedgerDiscrepancies } from 'src/modules/ledger/ledger-audit.service';

/**
 * What the ledger audit (LedgerAudit.check) answers for a consistent ledger: every journal balanced,
 * every running total equal to its entries and holds, no account overdrawn.
 */
export const NO_LEDGER_DISCREPANCIES: LedgerDiscrepancies = Object.freeze({
  unbalancedJournals: [],
  totalsMismatches: [],
  overdrawnAccounts: [],
});
