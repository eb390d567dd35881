import { uuidV5 } from 'src/core/ids/ids';

/**
 * The kinds of ledger account. `account` kinds belong to one investment account (owner = its id)
 * per currency; `tenant` kinds are the partner's house accounts per mode and currency.
 *
 * `keepsTotals`: the account row carries TigerBeetle's four running totals (debits/credits, posted
 * and pending), changed in the same statement as the entries and holds that move them, so its
 * balance is one row read and a no-overdraft rule can be enforced by PostgreSQL. House accounts
 * keep none: every transfer of the tenant touches them, and a running total would make their row
 * a lock every transfer waits on; their balance is the sum of their entries (reconciliation).
 *
 * `noOverdraft`: posted and pending debits never exceed posted credits (checked by a conditional
 * UPDATE and by a CHECK constraint), so no concurrency can take the balance below zero.
 */
export const LEDGER_ACCOUNT_KINDS = {
  /** An investor's cash in one currency (a liability of the broker: credit-normal). */
  investor_cash: {
    owner: 'account',
    normal: 'credit',
    keepsTotals: true,
    noOverdraft: true,
    currencyScale: true,
  },
  /** The partner's bank settlement (omnibus) account: money arriving from and leaving to banks. */
  bank_clearing: {
    owner: 'tenant',
    normal: 'debit',
    keepsTotals: false,
    noOverdraft: false,
    currencyScale: true,
  },
  /** Transfer fees earned. */
  fees_revenue: {
    owner: 'tenant',
    normal: 'credit',
    keepsTotals: false,
    noOverdraft: false,
    currencyScale: true,
  },
  /** Trading: cash owed to or by the clearing counterparty for executed trades. */
  securities_settlement: {
    owner: 'tenant',
    normal: 'debit',
    keepsTotals: false,
    noOverdraft: false,
    currencyScale: false,
  },
  /** Trading: commissions earned. */
  commissions_revenue: {
    owner: 'tenant',
    normal: 'credit',
    keepsTotals: false,
    noOverdraft: false,
    currencyScale: false,
  },
  /**
   * Corporate actions: cash the issuer's agent pays (dividends, cash in lieu, merger cash), owed to the
   * investors credited until the agent settles it.
   */
  corporate_action_clearing: {
    owner: 'tenant',
    normal: 'debit',
    keepsTotals: false,
    noOverdraft: false,
    currencyScale: true,
  },
  /** Corporate actions: dividend tax withheld from investors, owed to the tax authority. */
  withholding_tax_payable: {
    owner: 'tenant',
    normal: 'credit',
    keepsTotals: false,
    noOverdraft: false,
    currencyScale: true,
  },
  /** Cash sweep: interest the program pays out. */
  interest_expense: {
    owner: 'tenant',
    normal: 'debit',
    keepsTotals: false,
    noOverdraft: false,
    currencyScale: false,
  },
  /** Cash sweep: interest accrued and not yet paid. */
  interest_payable: {
    owner: 'tenant',
    normal: 'credit',
    keepsTotals: false,
    noOverdraft: false,
    currencyScale: false,
  },
  /** FX: the partner's currency position against its FX counterparty, one per currency (conversions). */
  fx_clearing: {
    owner: 'tenant',
    normal: 'debit',
    keepsTotals: false,
    noOverdraft: false,
    currencyScale: true,
  },
  /** FX: the spread kept on conversions, in the currency bought (the partner's revenue). */
  fx_spread_revenue: {
    owner: 'tenant',
    normal: 'credit',
    keepsTotals: false,
    noOverdraft: false,
    currencyScale: true,
  },
} as const satisfies Record<
  string,
  {
    owner: 'account' | 'tenant';
    normal: 'debit' | 'credit';
    keepsTotals: boolean;
    noOverdraft: boolean;
    /** Amounts limited to the currency's minor units (else up to 8 decimals, e.g. accruals). */
    currencyScale: boolean;
  }
>;

export type LedgerAccountKind = keyof typeof LEDGER_ACCOUNT_KINDS;

/** Names a ledger account within a journal's tenant and mode. */
export interface LedgerAccountRef {
  kind: LedgerAccountKind;
  currency: string;
  /** The investment account id, for `account` kinds; absent for house accounts. */
  ownerId?: string;
}

export interface LedgerScope {
  tenantId: string;
  livemode: boolean;
}

const LEDGER_ACCOUNT_NAMESPACE = '6f1b2c8e-4d3a-5b7c-9e0f-a1b2c3d4e5f6';

/**
 * Ledger account ids are derived from what they are (uuid v5), so every process knows an
 * account's id without a look-up and creating it twice is a no-op.
 */
export function ledgerAccountId(scope: LedgerScope, ref: LedgerAccountRef): string {
  const rule = LEDGER_ACCOUNT_KINDS[ref.kind];
  if ((rule.owner === 'account') !== Boolean(ref.ownerId)) {
    throw new Error(
      `Ledger account kind ${ref.kind} ${rule.owner === 'account' ? 'needs' : 'takes no'} owner.`,
    );
  }
  return uuidV5(
    `${scope.tenantId}|${scope.livemode ? 'live' : 'test'}|${ref.kind}|${ref.ownerId ?? ''}|${ref.currency}`,
    LEDGER_ACCOUNT_NAMESPACE,
  );
}
