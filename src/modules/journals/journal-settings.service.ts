import { Injectable, Module } from '@nestjs/common';
import Decimal from 'decimal.js';
import { DataSource, EntityManager } from 'typeorm';
import { ExpiringCache } from 'src/core/cache/expiring-cache';
import { Money } from 'src/core/money/money';

export interface JournalLimits {
  /** Largest JNLC, in the journal's currency. */
  perEntry: Decimal;
  /** Most an account other than the firm account receives by JNLC on one day of the clock. */
  perDayPerAccount: Decimal;
}

export const DEFAULT_JOURNAL_LIMITS: JournalLimits = {
  perEntry: new Money(10_000),
  perDayPerAccount: new Money(50_000),
};
const CACHE_MS = 5000;

/** Each tenant's journal limits (CLI `journals:settings` and the sandbox admin API). */
@Injectable()
export class JournalSettingsService {
  private readonly cache = new ExpiringCache<JournalLimits>(CACHE_MS);

  constructor(private readonly dataSource: DataSource) {}

  limits(tenantId: string, manager: EntityManager = this.dataSource.manager): Promise<JournalLimits> {
    return this.cache.get(tenantId, async () => {
      const rows: Array<{ per_entry: string; per_day: string }> = await manager.query(
        `SELECT journal_limit_per_entry::text AS per_entry, journal_limit_per_day_per_account::text AS per_day
           FROM journal_settings WHERE tenant_id = $1`,
        [tenantId],
      );
      return rows[0]
        ? { perEntry: new Money(rows[0].per_entry), perDayPerAccount: new Money(rows[0].per_day) }
        : DEFAULT_JOURNAL_LIMITS;
    });
  }

  /** Support: changes one or both limits (each above zero), keeping the other. */
  async update(
    tenantId: string,
    change: { perEntry?: string; perDayPerAccount?: string },
  ): Promise<JournalLimits> {
    const current = await this.limits(tenantId);
    const perEntry = new Money(change.perEntry ?? current.perEntry);
    const perDay = new Money(change.perDayPerAccount ?? current.perDayPerAccount);
    if (perEntry.lte(0) || perDay.lte(0)) {
      throw new Error('Journal limits must be above zero.');
    }
    await this.dataSource.query(
      `INSERT INTO journal_settings (tenant_id, journal_limit_per_entry, journal_limit_per_day_per_account, updated_at)
       VALUES ($1, $2, $3, now())
       ON CONFLICT (tenant_id) DO UPDATE SET journal_limit_per_entry = EXCLUDED.journal_limit_per_entry,
         journal_limit_per_day_per_account = EXCLUDED.journal_limit_per_day_per_account, updated_at = now()`,
      [tenantId, perEntry.toFixed(), perDay.toFixed()],
    );
    this.cache.delete(tenantId);
    return this.limits(tenantId);
  }
}

/** The journal limits alone, for the CLI and the sandbox admin API. */
@Module({ providers: [JournalSettingsService], exports: [JournalSettingsService] })
export class JournalSettingsModule {}
