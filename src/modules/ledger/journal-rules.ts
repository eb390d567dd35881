import Decimal from 'decimal.js';
import { isSupportedCurrency, minorUnits } from 'src/core/money/currencies';
import { Money } from 'src/core/money/money';
import {
  LEDGER_ACCOUNT_KINDS,
  LedgerAccountRef,
  ledgerAccountId,
  LedgerScope,
} from 'src/modules/ledger/ledger-account-kinds';
import { LedgerRuleError } from 'src/modules/ledger/ledger-errors';

export type Direction = 'debit' | 'credit';

export interface EntryInput {
  account: LedgerAccountRef;
  direction: Direction;
  /** Positive decimal (string or Decimal); never a JavaScript number. */
  amount: string | Decimal;
}

/** An entry with its account resolved and its amount checked. */
export interface ResolvedEntry {
  accountId: string;
  account: LedgerAccountRef;
  direction: Direction;
  amount: Decimal;
}

/** The ledger's own limit on decimals (accruals); cash kinds use their currency's minor units. */
const MAX_SCALE = 8;

/** Checks one amount for an account: positive, within the kind's decimals, a known currency. */
export function checkAmount(account: LedgerAccountRef, raw: string | Decimal): Decimal {
  if (typeof raw === 'number') {
    throw new LedgerRuleError('amounts are decimal strings, never numbers');
  }
  if (!isSupportedCurrency(account.currency)) {
    throw new LedgerRuleError(`unsupported currency ${account.currency}`);
  }
  const amount = new Money(raw);
  if (!amount.isFinite() || amount.lte(0)) {
    throw new LedgerRuleError(`amount ${amount.toString()} must be positive`);
  }
  const scale = LEDGER_ACCOUNT_KINDS[account.kind].currencyScale ? minorUnits(account.currency) : MAX_SCALE;
  if (amount.decimalPlaces() > scale) {
    throw new LedgerRuleError(
      `${account.kind} amounts in ${account.currency} carry at most ${scale} decimals`,
    );
  }
  return amount;
}

/**
 * The double-entry rule, checked before anything is written: at least two entries, every amount
 * positive, and debits equal credits in each currency.
 */
export function resolveEntries(scope: LedgerScope, entries: EntryInput[]): ResolvedEntry[] {
  if (entries.length < 2) {
    throw new LedgerRuleError('a journal needs at least two entries');
  }
  const net = new Map<string, Decimal>();
  const resolved = entries.map((entry) => {
    const amount = checkAmount(entry.account, entry.amount);
    const signed = entry.direction === 'debit' ? amount : amount.negated();
    net.set(entry.account.currency, (net.get(entry.account.currency) ?? new Money(0)).plus(signed));
    return {
      accountId: ledgerAccountId(scope, entry.account),
      account: entry.account,
      direction: entry.direction,
      amount,
    };
  });
  for (const [currency, sum] of net) {
    if (!sum.isZero()) {
      throw new LedgerRuleError(`debits and credits differ by ${sum.toString()} ${currency}`);
    }
  }
  return resolved;
}

/** Per-account sums of a journal's entries, in account id order (the order rows are locked in). */
export function totalsByAccount(
  entries: ResolvedEntry[],
): Array<{ accountId: string; account: LedgerAccountRef; debits: Decimal; credits: Decimal }> {
  const byId = new Map<
    string,
    { accountId: string; account: LedgerAccountRef; debits: Decimal; credits: Decimal }
  >();
  for (const entry of entries) {
    const sums = byId.get(entry.accountId) ?? {
      accountId: entry.accountId,
      account: entry.account,
      debits: new Money(0),
      credits: new Money(0),
    };
    if (entry.direction === 'debit') {
      sums.debits = sums.debits.plus(entry.amount);
    } else {
      sums.credits = sums.credits.plus(entry.amount);
    }
    byId.set(entry.accountId, sums);
  }
  return [...byId.values()].sort((a, b) => (a.accountId < b.accountId ? -1 : 1));
}
