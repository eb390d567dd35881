import type Decimal from 'decimal.js';

/** docs/decisions.md, Activities: every kind of change of an account's cash or positions. */
export const ACTIVITY_TYPES = [
  'FILL',
  'FEE',
  'CSD',
  'CSW',
  'INT',
  'DIV',
  'DIVNRA',
  'SPLIT',
  'CIL',
  'NC',
  'MA',
  'JNLC',
  'JNLS',
  'FXC',
] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

export const ACTIVITY_STATUSES = ['executed', 'canceled', 'correct'] as const;
export type ActivityStatus = (typeof ACTIVITY_STATUSES)[number];

/** What a module records in the transaction of the change (ActivitiesService.record). */
export interface ActivityInput {
  /**
   * Unique per tenant and mode, derived from the business object (`order:ord_…:fill:1`,
   * `txn_…:settled:fee`): recording the same key again writes nothing, so a retried job cannot
   * report a change twice.
   */
  key: string;
  accountId: string;
  type: ActivityType;
  /** Defaults to `executed`; a correction is a new activity with `correct`. */
  status?: ActivityStatus;
  /** Clock time of the change (the journal's effectiveAt). */
  at: Date;
  currency: string;
  /** Signed cash effect on the account (credit positive); 0 when none. */
  netAmount: Decimal.Value;
  symbol?: string;
  /** Signed position effect. */
  qty?: Decimal.Value;
  price?: Decimal.Value;
  perShareAmount?: Decimal.Value;
  side?: 'buy' | 'sell';
  orderId?: string;
  transactionId?: string;
  corporateActionId?: string;
  journalId?: string;
  conversionId?: string;
  description?: string;
}

export interface ActivityScope {
  tenantId: string;
  livemode: boolean;
}

/** A stored activity as read back (sequenced: it has its public id). */
export interface ActivityRow {
  id: string;
  account_id: string;
  activity_type: ActivityType;
  status: ActivityStatus;
  date: string;
  transaction_time: Date;
  currency: string;
  net_amount: string;
  symbol: string | null;
  qty: string | null;
  price: string | null;
  per_share_amount: string | null;
  side: 'buy' | 'sell' | null;
  order_id: string | null;
  transaction_id: string | null;
  corporate_action_id: string | null;
  journal_id: string | null;
  conversion_id: string | null;
  description: string | null;
}

/** A page of activities: filters and where to start. */
export interface ActivityFilter {
  types?: ActivityType[];
  date?: string;
  after?: Date;
  until?: Date;
  direction: 'asc' | 'desc';
  pageSize: number;
  /** seq of the page token (the last activity of the previous page). */
  afterSeq?: string;
}
