import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { LedgerScope } from 'src/modules/ledger/ledger-account-kinds';

export type JournalEntryType = 'JNLC' | 'JNLS';
export type JournalStatus = 'executed' | 'rejected';

export interface JournalRow {
  id: string;
  tenant_id: string;
  livemode: boolean;
  entry_type: JournalEntryType;
  from_account_id: string;
  to_account_id: string;
  from_investor_id: string | null;
  to_investor_id: string | null;
  amount: string | null;
  currency: string | null;
  symbol: string | null;
  asset_id: string | null;
  quantity: string | null;
  cost_basis: string | null;
  description: string | null;
  metadata: Record<string, string>;
  status: JournalStatus;
  reject_reason: string | null;
  batch_id: string | null;
  ledger_journal_id: string | null;
  business_date: string;
  created_at: Date;
}

const COLUMNS = `id, tenant_id, livemode, entry_type, from_account_id, to_account_id, from_investor_id, to_investor_id,
  trim_scale(amount)::text AS amount, currency, symbol, asset_id, trim_scale(quantity)::text AS quantity,
  trim_scale(cost_basis)::text AS cost_basis, description, metadata, status, reject_reason, batch_id,
  ledger_journal_id, to_char(business_date, 'YYYY-MM-DD') AS business_date, created_at`;

export interface JournalFilter {
  accountId?: string;
  entryType?: JournalEntryType;
  createdGte?: Date;
  createdLt?: Date;
}

/** Journals between accounts, executed or rejected (the money itself is in the ledger and positions). */
@Injectable()
export class JournalsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Inserts journals (one statement however many). */
  async insert(manager: EntityManager, rows: JournalRow[]): Promise<void> {
    if (rows.length === 0) {
      return;
    }
    await manager.query(
      `INSERT INTO journals (id, tenant_id, livemode, entry_type, from_account_id, to_account_id, from_investor_id,
         to_investor_id, amount, currency, symbol, asset_id, quantity, cost_basis, description, metadata, status,
         reject_reason, batch_id, ledger_journal_id, business_date, created_at)
       SELECT id, tenant_id, livemode, entry_type, from_account_id, to_account_id, from_investor_id, to_investor_id,
         amount, currency, symbol, asset_id, quantity, cost_basis, description, COALESCE(metadata, '{}'), status,
         reject_reason, batch_id, ledger_journal_id, business_date, created_at
         FROM jsonb_to_recordset($1::jsonb) AS r(id text, tenant_id text, livemode boolean, entry_type text,
           from_account_id uuid, to_account_id text, from_investor_id text, to_investor_id text, amount numeric,
           currency text, symbol text, asset_id text, quantity numeric, cost_basis numeric, description text,
           metadata jsonb, status text, reject_reason text, batch_id text, ledger_journal_id uuid,
           business_date date, created_at timestamptz)`,
      [JSON.stringify(rows)],
    );
  }

  /**
   * Serializes JNLC to the same accounts (the daily limit is read, then written): a transaction
   * lock per account, taken in id order so two batches cannot deadlock.
   */
  async lockReceivers(manager: EntityManager, accountIds: string[]): Promise<void> {
    await manager.query(
      `SELECT pg_advisory_xact_lock(hashtextextended('journal-received:' || id, 0))
         FROM (SELECT DISTINCT unnest($1::text[]) AS id ORDER BY 1) ids`,
      [accountIds],
    );
  }

  /** What each account received by executed JNLC in a currency on one business day. */
  async receivedOn(
    manager: EntityManager,
    accountIds: string[],
    currency: string,
    businessDate: string,
  ): Promise<Map<string, string>> {
    const rows: Array<{ to_account_id: string; total: string }> = await manager.query(
      `SELECT to_account_id, sum(amount)::text AS total FROM journals
        WHERE to_account_id = ANY($1::text[]) AND currency = $2 AND business_date = $3
          AND entry_type = 'JNLC' AND status = 'executed'
        GROUP BY to_account_id`,
      [accountIds, currency, businessDate],
    );
    return new Map(rows.map((r) => [r.to_account_id, r.total]));
  }

  async find(scope: LedgerScope, id: string): Promise<JournalRow | null> {
    const rows: JournalRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM journals WHERE tenant_id = $1 AND livemode = $2 AND id = $3`,
      [scope.tenantId, scope.livemode, id],
    );
    return rows[0] ?? null;
  }

  /**
   * A page newest first (created_at, id); `after` (starting_after) gives older rows, `before`
   * (ending_before) newer ones. limit + 1 rows are read so the caller knows whether more exist.
   */
  page(
    scope: LedgerScope,
    filter: JournalFilter,
    limit: number,
    cursor: { after?: JournalRow; before?: JournalRow },
  ): Promise<JournalRow[]> {
    const edge = cursor.after ?? cursor.before;
    const ascending = cursor.before !== undefined;
    return this.dataSource.query(
      `SELECT ${COLUMNS} FROM journals
        WHERE tenant_id = $1 AND livemode = $2
          AND ($3::text IS NULL OR from_account_id::text = $3 OR to_account_id = $3)
          AND ($4::text IS NULL OR entry_type = $4)
          AND ($5::timestamptz IS NULL OR created_at >= $5) AND ($6::timestamptz IS NULL OR created_at < $6)
          AND ($7::text IS NULL OR (created_at, id) ${ascending ? '>' : '<'}
               ((SELECT created_at FROM journals WHERE id = $7), $7))
        ORDER BY created_at ${ascending ? 'ASC' : 'DESC'}, id ${ascending ? 'ASC' : 'DESC'}
        LIMIT $8`,
      [
        scope.tenantId,
        scope.livemode,
        filter.accountId ?? null,
        filter.entryType ?? null,
        filter.createdGte ?? null,
        filter.createdLt ?? null,
        edge?.id ?? null,
        limit + 1,
      ],
    );
  }
}
