import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { SweepScope } from 'src/modules/cash-sweep/apr-tiers.repository';

export interface InterestRow {
  account_id: string;
  investor_id: string;
  currency: string;
  date: string;
  apr_tier_id: string;
  apr_tier_name: string;
  cash_balance: string;
  account_rate_bps: number;
  account_accrued_interest: string;
  correspondent_rate_bps: number;
  correspondent_fee: string;
}

export interface PayoutRow {
  id: string;
  account_id: string;
  investor_id: string;
  currency: string;
  month: string;
  amount: string;
  accrued_interest: string;
  correspondent_fee: string;
  days: number;
  paid_at: Date;
}

/** Where a page of interest history starts: after this day and currency. */
export interface InterestCursor {
  date: string;
  currency: string;
}

export interface InterestFilter {
  date?: string;
  after?: string;
  before?: string;
}

const ENTRY_COLUMNS =
  "account_id, investor_id, currency, to_char(date, 'YYYY-MM-DD') AS date, apr_tier_id, apr_tier_name, " +
  'cash_balance, account_rate_bps, account_accrued_interest, correspondent_rate_bps, correspondent_fee';
const PAYOUT_COLUMNS =
  'id, account_id, investor_id, currency, month, amount, accrued_interest, correspondent_fee, days, paid_at';

/** The daily interest history (one row per account, currency and day) and the monthly payouts. */
@Injectable()
export class InterestRepository {
  /** Writes the day's entries; an entry already there stays as it is. How many were new. */
  async insertEntries(manager: EntityManager, scope: SweepScope, rows: InterestRow[]): Promise<number> {
    if (rows.length === 0) {
      return 0;
    }
    const inserted: unknown[] = await manager.query(
      `INSERT INTO cash_sweep_interest (account_id, investor_id, currency, date, apr_tier_id, apr_tier_name,
                                        cash_balance, account_rate_bps, account_accrued_interest,
                                        correspondent_rate_bps, correspondent_fee, tenant_id, livemode)
       SELECT r.account_id::uuid, r.investor_id, r.currency, r.date::date, r.apr_tier_id, r.apr_tier_name,
              r.cash_balance::numeric, r.account_rate_bps::int, r.account_accrued_interest::numeric,
              r.correspondent_rate_bps::int, r.correspondent_fee::numeric, $2, $3
         FROM jsonb_to_recordset($1::jsonb) AS r(account_id text, investor_id text, currency text, date text,
              apr_tier_id text, apr_tier_name text, cash_balance text, account_rate_bps int,
              account_accrued_interest text, correspondent_rate_bps int, correspondent_fee text)
       ON CONFLICT (account_id, currency, date) DO NOTHING RETURNING date`,
      [JSON.stringify(rows), scope.tenantId, scope.livemode],
    );
    return inserted.length;
  }

  /** An investor's entries, oldest first (by day, then currency), after the cursor. */
  async page(
    manager: EntityManager,
    scope: SweepScope,
    investorId: string,
    filter: InterestFilter,
    cursor: InterestCursor | null,
    limit: number,
  ): Promise<InterestRow[]> {
    return manager.query(
      `SELECT ${ENTRY_COLUMNS} FROM cash_sweep_interest
        WHERE tenant_id = $1 AND livemode = $2 AND investor_id = $3
          AND ($4::date IS NULL OR date = $4::date)
          AND ($5::date IS NULL OR date > $5::date)
          AND ($6::date IS NULL OR date < $6::date)
          AND ($7::date IS NULL OR (date, currency) > ($7::date, $8::text))
        ORDER BY date, currency LIMIT $9`,
      [
        scope.tenantId,
        scope.livemode,
        investorId,
        filter.date ?? null,
        filter.after ?? null,
        filter.before ?? null,
        cursor?.date ?? null,
        cursor?.currency ?? '',
        limit,
      ],
    );
  }

  /** Per account: the month's accrued interest and fees, summed at 8 decimals. */
  async monthTotals(
    manager: EntityManager,
    scope: SweepScope,
    currency: string,
    month: string,
  ): Promise<
    Array<{ account_id: string; investor_id: string; accrued: string; fees: string; days: number }>
  > {
    return manager.query(
      `SELECT account_id, investor_id, sum(account_accrued_interest) AS accrued, sum(correspondent_fee) AS fees,
              count(*)::int AS days
         FROM cash_sweep_interest
        WHERE tenant_id = $1 AND livemode = $2 AND currency = $3
          AND date >= ($4 || '-01')::date AND date < ($4 || '-01')::date + interval '1 month'
        GROUP BY account_id, investor_id ORDER BY account_id`,
      [scope.tenantId, scope.livemode, currency, month],
    );
  }

  /** Interest accrued from `from` (a month's first day) on, per currency, for one account. */
  async accruedSince(
    manager: EntityManager,
    accountId: string,
    from: string,
  ): Promise<Map<string, { accrued: string; last: string }>> {
    const rows: Array<{ currency: string; accrued: string; last: string }> = await manager.query(
      `SELECT currency, sum(account_accrued_interest) AS accrued, to_char(max(date), 'YYYY-MM-DD') AS last
         FROM cash_sweep_interest WHERE account_id = $1 AND date >= $2::date GROUP BY currency`,
      [accountId, from],
    );
    return new Map(rows.map((r) => [r.currency, { accrued: r.accrued, last: r.last }]));
  }

  /** Program totals per currency since `from`: cash swept on `day` and interest accrued. */
  async programTotals(
    manager: EntityManager,
    scope: SweepScope,
    monthStart: string,
    lastDay: string,
  ): Promise<Array<{ currency: string; accrued: string; fees: string; swept: string }>> {
    return manager.query(
      `SELECT currency,
              sum(account_accrued_interest) FILTER (WHERE date >= $3::date) AS accrued,
              sum(correspondent_fee) FILTER (WHERE date >= $3::date) AS fees,
              sum(cash_balance) FILTER (WHERE date = $4::date) AS swept
         FROM cash_sweep_interest
        WHERE tenant_id = $1 AND livemode = $2 AND date >= least($3::date, $4::date)
        GROUP BY currency`,
      [scope.tenantId, scope.livemode, monthStart, lastDay],
    );
  }

  /** The latest day accrued in the scope, or of one account. */
  async lastAccruedDay(
    manager: EntityManager,
    scope: SweepScope,
    accountId?: string,
  ): Promise<string | null> {
    const rows: Array<{ last: string | null }> = await manager.query(
      `SELECT to_char(max(date), 'YYYY-MM-DD') AS last FROM cash_sweep_interest
        WHERE tenant_id = $1 AND livemode = $2 AND ($3::uuid IS NULL OR account_id = $3::uuid)`,
      [scope.tenantId, scope.livemode, accountId ?? null],
    );
    return rows[0]?.last ?? null;
  }

  /** Inserts a payout unless the month is already paid for the account; true when inserted. */
  async insertPayout(manager: EntityManager, scope: SweepScope, row: PayoutRow): Promise<boolean> {
    const inserted: unknown[] = await manager.query(
      `INSERT INTO cash_sweep_payouts (${PAYOUT_COLUMNS}, tenant_id, livemode)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
       ON CONFLICT (account_id, currency, month) DO NOTHING RETURNING id`,
      [
        row.id,
        row.account_id,
        row.investor_id,
        row.currency,
        row.month,
        row.amount,
        row.accrued_interest,
        row.correspondent_fee,
        row.days,
        row.paid_at,
        scope.tenantId,
        scope.livemode,
      ],
    );
    return inserted.length === 1;
  }

  /** Newest first, keyset on (paid_at, id); optional account and currency filters. */
  async payouts(
    manager: EntityManager,
    scope: SweepScope,
    filter: { accountId?: string; currency?: string; startingAfter?: { paidAt: Date; id: string } },
    limit: number,
  ): Promise<PayoutRow[]> {
    return manager.query(
      `SELECT ${PAYOUT_COLUMNS} FROM cash_sweep_payouts
        WHERE tenant_id = $1 AND livemode = $2 AND ($3::uuid IS NULL OR account_id = $3::uuid)
          AND ($4::text IS NULL OR currency = $4)
          AND ($5::timestamptz IS NULL OR (paid_at, id) < ($5::timestamptz, $6::text))
        ORDER BY paid_at DESC, id DESC LIMIT $7`,
      [
        scope.tenantId,
        scope.livemode,
        filter.accountId ?? null,
        filter.currency ?? null,
        filter.startingAfter?.paidAt ?? null,
        filter.startingAfter?.id ?? '',
        limit,
      ],
    );
  }

  async findPayout(manager: EntityManager, scope: SweepScope, id: string): Promise<PayoutRow | null> {
    const rows: PayoutRow[] = await manager.query(
      `SELECT ${PAYOUT_COLUMNS} FROM cash_sweep_payouts WHERE id = $1 AND tenant_id = $2 AND livemode = $3`,
      [id, scope.tenantId, scope.livemode],
    );
    return rows[0] ?? null;
  }

  /** Paid per currency since `from` (the year's first day). */
  async paidSince(manager: EntityManager, scope: SweepScope, from: Date): Promise<Map<string, string>> {
    const rows: Array<{ currency: string; paid: string }> = await manager.query(
      `SELECT currency, sum(amount) AS paid FROM cash_sweep_payouts
        WHERE tenant_id = $1 AND livemode = $2 AND paid_at >= $3 GROUP BY currency`,
      [scope.tenantId, scope.livemode, from],
    );
    return new Map(rows.map((r) => [r.currency, r.paid]));
  }
}
