/**
 * The no-overdraft rule as SQL, for every statement that adds to an account's running totals: an
 * account marked `no_overdraft` takes the change only when its posted and pending debits stay
 * within its posted credits afterwards. The changes are SQL expressions (parameters or columns),
 * `table` the alias of `ledger_accounts` in the statement (none: the bare columns).
 */
export function keepsWithinCredits(
  change: { postedDebits?: string; pendingDebits?: string; postedCredits?: string },
  table?: string,
): string {
  const column = (name: string) => (table ? `${table}.${name}` : name);
  const plus = (expression?: string) => (expression ? ` + ${expression}` : '');
  return (
    `(NOT ${column('no_overdraft')} OR ${column('debits_posted')}${plus(change.postedDebits)} + ` +
    `${column('debits_pending')}${plus(change.pendingDebits)} <= ${column('credits_posted')}${plus(change.postedCredits)})`
  );
}
