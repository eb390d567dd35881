import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

export interface LedgerDiscrepancies {
  /** Journals whose entries do not sum to zero in some currency, or that have fewer than two. */
  unbalancedJournals: string[];
  /** Accounts whose running totals differ from the sums of their entries and pending holds. */
  totalsMismatches: string[];
  /** No-overdraft accounts whose posted and pending debits exceed posted credits. */
  overdrawnAccounts: string[];
}

/**
 * Checks the ledger's invariants from the rows themselves (tests, support). An empty result in
 * every list means the ledger is consistent.
 */
@Injectable()
export class LedgerAudit {
  constructor(private readonly dataSource: DataSource) {}

  async check(tenantId?: string): Promise<LedgerDiscrepancies> {
    const params = [tenantId ?? null];
    const unbalanced: Array<{ id: string }> = await this.dataSource.query(
      `SELECT j.id FROM ledger_journals j
         LEFT JOIN ledger_entries e ON e.journal_id = j.id
        WHERE $1::text IS NULL OR j.tenant_id = $1
        GROUP BY j.id
       HAVING count(e.id) < 2 OR bool_or(e.id IS NULL) OR EXISTS (
              SELECT 1 FROM ledger_entries x WHERE x.journal_id = j.id GROUP BY x.currency
              HAVING sum(CASE WHEN x.direction = 'debit' THEN x.amount ELSE -x.amount END) <> 0)`,
      params,
    );
    const mismatched: Array<{ id: string }> = await this.dataSource.query(
      `WITH posted AS (
              SELECT ledger_account_id AS id,
                     sum(CASE WHEN direction = 'debit' THEN amount ELSE 0 END) AS debits,
                     sum(CASE WHEN direction = 'credit' THEN amount ELSE 0 END) AS credits
                FROM ledger_entries GROUP BY ledger_account_id),
            held_debit AS (
              SELECT debit_account_id AS id, sum(pending_amount) AS amount FROM ledger_holds
               WHERE status = 'pending' GROUP BY debit_account_id),
            held_credit AS (
              SELECT credit_account_id AS id, sum(pending_amount) AS amount FROM ledger_holds
               WHERE status = 'pending' GROUP BY credit_account_id)
       SELECT a.id FROM ledger_accounts a
         LEFT JOIN posted p ON p.id = a.id
         LEFT JOIN held_debit hd ON hd.id = a.id
         LEFT JOIN held_credit hc ON hc.id = a.id
        WHERE a.keeps_totals AND ($1::text IS NULL OR a.tenant_id = $1)
          AND (a.debits_posted <> COALESCE(p.debits, 0) OR a.credits_posted <> COALESCE(p.credits, 0)
               OR a.debits_pending <> COALESCE(hd.amount, 0) OR a.credits_pending <> COALESCE(hc.amount, 0))`,
      params,
    );
    const overdrawn: Array<{ id: string }> = await this.dataSource.query(
      `SELECT id FROM ledger_accounts
        WHERE no_overdraft AND debits_posted + debits_pending > credits_posted
          AND ($1::text IS NULL OR tenant_id = $1)`,
      params,
    );
    return {
      unbalancedJournals: unbalanced.map((r) => r.id),
      totalsMismatches: mismatched.map((r) => r.id),
      overdrawnAccounts: overdrawn.map((r) => r.id),
    };
  }
}
