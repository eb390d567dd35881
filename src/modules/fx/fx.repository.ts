import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { WriteBatch } from 'src/core/database/write-batch';
import type { LedgerScope } from 'src/modules/ledger/ledger-account-kinds';

/** A quote as stored (numbers as text, trailing zeros kept as the currency needs them). */
export interface FxQuoteRow {
  id: string;
  tenant_id: string;
  livemode: boolean;
  from_currency: string;
  to_currency: string;
  from_amount: string;
  to_amount: string;
  rate: string;
  mid_rate: string;
  spread_bps: number;
  spread_amount: string;
  expires_at: Date;
  used_at: Date | null;
  created_at: Date;
}

export interface FxConversionRow {
  id: string;
  tenant_id: string;
  livemode: boolean;
  account_id: string;
  investor_id: string | null;
  from_currency: string;
  to_currency: string;
  from_amount: string;
  to_amount: string;
  rate: string;
  mid_rate: string;
  spread_bps: number;
  spread_amount: string;
  status: 'executed';
  quote_id: string | null;
  ledger_journal_id: string;
  created_at: Date;
}

const NUMBERS = `trim_scale(from_amount)::text AS from_amount, trim_scale(to_amount)::text AS to_amount,
  trim_scale(rate)::text AS rate, trim_scale(mid_rate)::text AS mid_rate,
  trim_scale(spread_amount)::text AS spread_amount`;
const QUOTE_COLUMNS = `id, tenant_id, livemode, from_currency, to_currency, ${NUMBERS}, spread_bps, expires_at,
  used_at, created_at`;
const CONVERSION_COLUMNS = `id, tenant_id, livemode, account_id, investor_id, from_currency, to_currency, ${NUMBERS},
  spread_bps, status, quote_id, ledger_journal_id, created_at`;

/** Rate overrides, quotes and conversions. The rows hold terms; money is in the ledger. */
@Injectable()
export class FxRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The test helper's rate for a pair of a tenant (test mode), or null. */
  async override(
    tenantId: string,
    from: string,
    to: string,
    manager?: EntityManager,
  ): Promise<string | null> {
    const rows: Array<{ rate: string }> = await (manager ?? this.dataSource.manager).query(
      `SELECT trim_scale(rate)::text AS rate FROM fx_rate_overrides
        WHERE tenant_id = $1 AND from_currency = $2 AND to_currency = $3`,
      [tenantId, from, to],
    );
    return rows[0]?.rate ?? null;
  }

  /** Sets a pair and its reverse in one statement. */
  async setOverride(
    manager: EntityManager,
    tenantId: string,
    pair: [string, string, string],
    reverse: [string, string, string],
  ) {
    await manager.query(
      `INSERT INTO fx_rate_overrides (tenant_id, from_currency, to_currency, rate, updated_at)
       VALUES ($1, $2, $3, $4, now()), ($1, $5, $6, $7, now())
       ON CONFLICT (tenant_id, from_currency, to_currency) DO UPDATE SET rate = EXCLUDED.rate, updated_at = now()`,
      [tenantId, ...pair, ...reverse],
    );
  }

  async clearOverride(manager: EntityManager, tenantId: string, from: string, to: string): Promise<void> {
    await manager.query(
      `DELETE FROM fx_rate_overrides WHERE tenant_id = $1
         AND ((from_currency = $2 AND to_currency = $3) OR (from_currency = $3 AND to_currency = $2))`,
      [tenantId, from, to],
    );
  }

  async insertQuote(manager: EntityManager, quote: FxQuoteRow): Promise<void> {
    await manager.query(
      `INSERT INTO fx_quotes (id, tenant_id, livemode, from_currency, to_currency, from_amount, to_amount, rate,
         mid_rate, spread_bps, spread_amount, expires_at, used_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, NULL, $13)`,
      [
        quote.id,
        quote.tenant_id,
        quote.livemode,
        quote.from_currency,
        quote.to_currency,
        quote.from_amount,
        quote.to_amount,
        quote.rate,
        quote.mid_rate,
        quote.spread_bps,
        quote.spread_amount,
        quote.expires_at,
        quote.created_at,
      ],
    );
  }

  /**
   * Takes a quote for one conversion: marks it used only while unused and unexpired at `now` (one
   * conditional UPDATE, so two conversions can never share it). Null when it exists but cannot be
   * used; undefined when the scope has no such quote.
   */
  async useQuote(
    manager: EntityManager,
    scope: LedgerScope,
    quoteId: string,
    now: Date,
  ): Promise<FxQuoteRow | null | undefined> {
    const [rows]: [FxQuoteRow[], number] = await manager.query(
      `UPDATE fx_quotes SET used_at = $4
        WHERE id = $1 AND tenant_id = $2 AND livemode = $3 AND used_at IS NULL AND expires_at > $4
        RETURNING ${QUOTE_COLUMNS}`,
      [quoteId, scope.tenantId, scope.livemode, now],
    );
    if (rows.length > 0) {
      return rows[0];
    }
    const exists: unknown[] = await manager.query(
      `SELECT 1 FROM fx_quotes WHERE id = $1 AND tenant_id = $2 AND livemode = $3`,
      [quoteId, scope.tenantId, scope.livemode],
    );
    return exists.length > 0 ? null : undefined;
  }

  insertConversionInto(batch: WriteBatch, c: FxConversionRow): void {
    batch.add({
      changes: { table: 'fx_conversions', key: c.id },
      sql: `INSERT INTO fx_conversions (id, tenant_id, livemode, account_id, investor_id, from_currency, to_currency,
         from_amount, to_amount, rate, mid_rate, spread_bps, spread_amount, status, quote_id, ledger_journal_id,
         created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17) RETURNING id`,
      params: [
        c.id,
        c.tenant_id,
        c.livemode,
        c.account_id,
        c.investor_id,
        c.from_currency,
        c.to_currency,
        c.from_amount,
        c.to_amount,
        c.rate,
        c.mid_rate,
        c.spread_bps,
        c.spread_amount,
        c.status,
        c.quote_id,
        c.ledger_journal_id,
        c.created_at,
      ],
    });
  }

  /** An account's conversions, newest first (created_at, then id), like the transactions list. */
  listConversions(
    scope: LedgerScope,
    accountId: string,
    filter: { createdGte?: Date; createdLt?: Date; limit: number; offset: number },
  ): Promise<FxConversionRow[]> {
    return this.dataSource.query(
      `SELECT ${CONVERSION_COLUMNS} FROM fx_conversions
        WHERE tenant_id = $1 AND livemode = $2 AND account_id = $3
          AND ($4::timestamptz IS NULL OR created_at >= $4) AND ($5::timestamptz IS NULL OR created_at < $5)
        ORDER BY created_at DESC, id DESC LIMIT $6 OFFSET $7`,
      [
        scope.tenantId,
        scope.livemode,
        accountId,
        filter.createdGte ?? null,
        filter.createdLt ?? null,
        filter.limit,
        filter.offset,
      ],
    );
  }

  async findConversion(scope: LedgerScope, accountId: string, id: string): Promise<FxConversionRow | null> {
    const rows: FxConversionRow[] = await this.dataSource.query(
      `SELECT ${CONVERSION_COLUMNS} FROM fx_conversions
        WHERE tenant_id = $1 AND livemode = $2 AND account_id = $3 AND id = $4`,
      [scope.tenantId, scope.livemode, accountId, id],
    );
    return rows[0] ?? null;
  }
}
