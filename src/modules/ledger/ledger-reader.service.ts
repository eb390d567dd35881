import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { DataSource, EntityManager } from 'typeorm';
import { Money } from 'src/core/money/money';
import { ledgerAccountId, LedgerScope } from 'src/modules/ledger/ledger-account-kinds';
import type { CashBalance } from 'src/modules/ledger/ledger.types';

interface BalanceRow {
  owner_id: string;
  currency: string;
  cash: string;
  available: string;
  pending_deposits: string;
  withdrawal_holds: string;
  order_holds: string;
}

const pendingOf = (side: 'debit' | 'credit', kind: string) =>
  `COALESCE((SELECT sum(h.pending_amount) FROM ledger_holds h
              WHERE h.${side}_account_id = a.id AND h.status = 'pending' AND h.kind = '${kind}'), 0)`;

/** Balances read from the ledger: running totals of investor cash, holds grouped by kind. */
@Injectable()
export class LedgerReader {
  constructor(private readonly dataSource: DataSource) {}

  /** Investor cash per owner (investment account) and currency, currencies alphabetical. */
  async balances(
    scope: LedgerScope,
    ownerIds: string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Map<string, CashBalance[]>> {
    const byOwner = new Map<string, CashBalance[]>(ownerIds.map((id) => [id, []]));
    if (ownerIds.length === 0) {
      return byOwner;
    }
    const rows: BalanceRow[] = await manager.query(
      `SELECT a.owner_id, a.currency,
              a.credits_posted - a.debits_posted AS cash,
              a.credits_posted - a.debits_posted - a.debits_pending AS available,
              ${pendingOf('credit', 'deposit')} AS pending_deposits,
              ${pendingOf('debit', 'withdrawal')} AS withdrawal_holds,
              ${pendingOf('debit', 'order')} AS order_holds
         FROM ledger_accounts a
        WHERE a.owner_id = ANY($1) AND a.kind = 'investor_cash' AND a.tenant_id = $2 AND a.livemode = $3
        ORDER BY a.currency`,
      [ownerIds, scope.tenantId, scope.livemode],
    );
    for (const row of rows) {
      byOwner.get(row.owner_id)?.push({
        currency: row.currency,
        cash: new Money(row.cash),
        available: new Money(row.available),
        pendingDeposits: new Money(row.pending_deposits),
        withdrawalHolds: new Money(row.withdrawal_holds),
        orderHolds: new Money(row.order_holds),
      });
    }
    return byOwner;
  }

  /**
   * Settled cash of an investment account in one currency as of an instant (clock time): the sum
   * of its posted entries effective at or before it.
   */
  async cashAt(
    scope: LedgerScope,
    ownerId: string,
    currency: string,
    instant: Date,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Decimal> {
    const rows: Array<{ cash: string | null }> = await manager.query(
      `SELECT sum(CASE WHEN direction = 'credit' THEN amount ELSE -amount END) AS cash
         FROM ledger_entries WHERE ledger_account_id = $1 AND effective_at <= $2`,
      [ledgerAccountId(scope, { kind: 'investor_cash', ownerId, currency }), instant],
    );
    return new Money(rows[0]?.cash ?? 0);
  }

  /** As cashAt for many accounts in one query; an account without entries counts zero. */
  async cashAtMany(
    scope: LedgerScope,
    ownerIds: string[],
    currency: string,
    instant: Date,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Map<string, Decimal>> {
    const byLedgerId = new Map(
      ownerIds.map((ownerId) => [
        ledgerAccountId(scope, { kind: 'investor_cash', ownerId, currency }),
        ownerId,
      ]),
    );
    const result = new Map<string, Decimal>(ownerIds.map((id) => [id, new Money(0)]));
    if (ownerIds.length === 0) {
      return result;
    }
    const rows: Array<{ id: string; cash: string }> = await manager.query(
      `SELECT ledger_account_id AS id, sum(CASE WHEN direction = 'credit' THEN amount ELSE -amount END) AS cash
         FROM ledger_entries WHERE ledger_account_id = ANY($1::uuid[]) AND effective_at <= $2
        GROUP BY ledger_account_id`,
      [[...byLedgerId.keys()], instant],
    );
    for (const row of rows) {
      result.set(byLedgerId.get(row.id)!, new Money(row.cash));
    }
    return result;
  }

  /**
   * cashAt of each of an account's investor cash ledger accounts (currencies alphabetical) at each
   * of `instants` (ascending), in one query: every entry up to the last instant is counted once,
   * in the first instant at or after it, and the counts add up instant by instant.
   */
  async cashSeries(
    scope: LedgerScope,
    ownerId: string,
    instants: Date[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Map<string, Decimal[]>> {
    const rows: Array<{ currency: string; cash: string }> = await manager.query(
      `WITH accounts AS (
         SELECT id, currency FROM ledger_accounts
          WHERE owner_id = $1 AND kind = 'investor_cash' AND tenant_id = $2 AND livemode = $3),
       instants AS (SELECT at, n FROM unnest($4::timestamptz[]) WITH ORDINALITY AS i(at, n)),
       moves AS (
         SELECT e.ledger_account_id AS id, (SELECT min(i.n) FROM instants i WHERE i.at >= e.effective_at) AS n,
                sum(CASE WHEN e.direction = 'credit' THEN e.amount ELSE -e.amount END) AS cash
           FROM accounts a JOIN ledger_entries e ON e.ledger_account_id = a.id
          WHERE e.effective_at <= $5
          GROUP BY 1, 2)
       SELECT a.currency, sum(COALESCE(m.cash, 0)) OVER (PARTITION BY a.id ORDER BY i.n) AS cash
         FROM accounts a CROSS JOIN instants i LEFT JOIN moves m ON m.id = a.id AND m.n = i.n
        ORDER BY a.currency, i.n`,
      [ownerId, scope.tenantId, scope.livemode, instants, instants[instants.length - 1]],
    );
    const series = new Map<string, Decimal[]>();
    for (const row of rows) {
      const points = series.get(row.currency) ?? [];
      points.push(new Money(row.cash));
      series.set(row.currency, points);
    }
    return series;
  }
}
