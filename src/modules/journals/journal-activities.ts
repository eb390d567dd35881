import Decimal from 'decimal.js';
import type { ActivityInput } from 'src/modules/activities/activity-types';
import type { JournalRow } from 'src/modules/journals/journals.repository';

/**
 * An executed journal's two activities (docs/decisions.md, Activities): JNLC moves cash out of the source
 * and into the target; JNLS moves units (no cash), priced at the cost basis per unit it carries.
 * A rejected journal changed nothing and records nothing. A JNLS's activities are in the
 * currency of the asset it moved (`unitsCurrency`).
 */
export function journalActivities(row: JournalRow, unitsCurrency?: string): ActivityInput[] {
  if (row.status !== 'executed') {
    return [];
  }
  const common = { at: row.created_at, journalId: row.id, description: row.description ?? undefined };
  if (row.entry_type === 'JNLC') {
    const amount = new Decimal(row.amount!);
    const cash = { ...common, type: 'JNLC' as const, currency: row.currency! };
    return [
      { ...cash, key: `${row.id}:from`, accountId: row.from_account_id, netAmount: amount.neg() },
      { ...cash, key: `${row.id}:to`, accountId: row.to_account_id, netAmount: amount },
    ];
  }
  const quantity = new Decimal(row.quantity!);
  const units = {
    ...common,
    type: 'JNLS' as const,
    currency: unitsCurrency ?? row.currency!,
    netAmount: 0,
    symbol: row.symbol ?? undefined,
    price: row.cost_basis !== null ? new Decimal(row.cost_basis).div(quantity) : undefined,
  };
  return [
    { ...units, key: `${row.id}:from`, accountId: row.from_account_id, qty: quantity.neg() },
    { ...units, key: `${row.id}:to`, accountId: row.to_account_id, qty: quantity },
  ];
}
