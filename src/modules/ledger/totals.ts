import Decimal from 'decimal.js';
import type { EntityManager } from 'typeorm';
import { Money } from 'src/core/money/money';
import { LEDGER_ACCOUNT_KINDS, LedgerAccountRef } from 'src/modules/ledger/ledger-account-kinds';
import { InsufficientFundsError } from 'src/modules/ledger/ledger-errors';
import type { LedgerRepository, TotalsDelta } from 'src/modules/ledger/ledger.repository';

/** Changes to the running totals of the accounts one write touches, applied in account id order. */
export class TotalsChange {
  private readonly deltas = new Map<string, { account: LedgerAccountRef; delta: TotalsDelta }>();

  add(
    accountId: string,
    account: LedgerAccountRef,
    change: Partial<Record<keyof TotalsDelta, Decimal>>,
  ): this {
    if (!LEDGER_ACCOUNT_KINDS[account.kind].keepsTotals) {
      return this; // house accounts keep no totals (see LEDGER_ACCOUNT_KINDS)
    }
    const zero = new Money(0);
    const known = this.deltas.get(accountId) ?? {
      account,
      delta: { debitsPosted: zero, creditsPosted: zero, debitsPending: zero, creditsPending: zero },
    };
    for (const [key, value] of Object.entries(change) as Array<[keyof TotalsDelta, Decimal]>) {
      known.delta[key] = known.delta[key].plus(value);
    }
    this.deltas.set(accountId, known);
    return this;
  }

  /**
   * The accounts' conditional UPDATEs (LedgerRepository.applyTotals: in id order, one statement
   * for however many accounts). A no-overdraft account that would go below zero refuses: the
   * caller's transaction is abandoned with 422 SVC-422-002.
   */
  async apply(
    manager: EntityManager,
    repository: LedgerRepository,
    insufficientFundsParam?: string,
  ): Promise<void> {
    const ordered = [...this.deltas.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
    const refused = await repository.applyTotals(
      manager,
      ordered.map(([accountId, { delta }]) => ({ accountId, delta })),
    );
    const first = ordered.find(([accountId]) => refused.has(accountId));
    if (first) {
      throw new InsufficientFundsError(first[1].account.currency, insufficientFundsParam);
    }
  }
}
