import type { LedgerAudit } from 'src/modules/ledger/ledger-audit.service';
import { NO_LEDGER_DISCREPANCIES } from '../../support/ledger-audit';

/** Ledger accounts the ledger specs post to (USD unless given). */
export const cash = (ownerId: string, currency = 'USD') => ({
  kind: 'investor_cash' as const,
  ownerId,
  currency,
});
export const bank = (currency = 'USD') => ({ kind: 'bank_clearing' as const, currency });
export const fees = (currency = 'USD') => ({ kind: 'fees_revenue' as const, currency });

/** The tenant's ledger passes the audit: balanced journals, totals equal to entries, no overdraft. */
export async function expectLedgerConsistent(audit: LedgerAudit, tenantId: string): Promise<void> {
  expect(await audit.check(tenantId)).toEqual(NO_LEDGER_DISCREPANCIES);
}
