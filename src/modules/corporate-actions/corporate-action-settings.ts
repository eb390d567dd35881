import { Injectable, Module } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { ExpiringCache } from 'src/core/cache/expiring-cache';

/** Withholding on dividends of investors whose tax residence is not the US, unless support sets another. */
export const DEFAULT_DIVIDEND_WITHHOLDING_BPS = 3000;
const CACHE_MS = 5000;

/** Each tenant's corporate action terms (one row, or the default), set by support through the CLI. */
@Injectable()
export class CorporateActionSettings {
  private readonly cache = new ExpiringCache<number>(CACHE_MS);

  constructor(private readonly dataSource: DataSource) {}

  withholdingBps(tenantId: string, manager: EntityManager = this.dataSource.manager): Promise<number> {
    return this.cache.get(tenantId, async () => {
      const rows: Array<{ bps: number }> = await manager.query(
        `SELECT dividend_withholding_bps AS bps FROM corporate_action_settings WHERE tenant_id = $1`,
        [tenantId],
      );
      return rows[0]?.bps ?? DEFAULT_DIVIDEND_WITHHOLDING_BPS;
    });
  }

  async setWithholdingBps(tenantId: string, bps: number): Promise<number> {
    await this.dataSource.query(
      `INSERT INTO corporate_action_settings (tenant_id, dividend_withholding_bps, updated_at) VALUES ($1, $2, now())
       ON CONFLICT (tenant_id) DO UPDATE SET dividend_withholding_bps = EXCLUDED.dividend_withholding_bps,
         updated_at = now()`,
      [tenantId, bps],
    );
    this.cache.delete(tenantId);
    return this.withholdingBps(tenantId);
  }
}

/** The settings alone, for the CLI and the sandbox admin API. */
@Module({ providers: [CorporateActionSettings], exports: [CorporateActionSettings] })
export class CorporateActionSettingsModule {}
