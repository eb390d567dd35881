import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { ExpiringCache } from 'src/core/cache/expiring-cache';

/** The spread a tenant keeps on conversions unless support sets another (basis points). */
export const DEFAULT_FX_SPREAD_BPS = 100;
export const MAX_FX_SPREAD_BPS = 5000;
/** Settings are cached this long per process: a CLI change applies everywhere within it. */
const CACHE_MS = 5000;

/** Each tenant's FX spread (`fx_spread_bps`, CLI `fx:settings` and the sandbox admin API). */
@Injectable()
export class FxSettingsService {
  private readonly cache = new ExpiringCache<number>(CACHE_MS);

  constructor(private readonly dataSource: DataSource) {}

  spreadBps(tenantId: string, manager: EntityManager = this.dataSource.manager): Promise<number> {
    return this.cache.get(tenantId, async () => {
      const rows: Array<{ fx_spread_bps: number }> = await manager.query(
        `SELECT fx_spread_bps FROM fx_settings WHERE tenant_id = $1`,
        [tenantId],
      );
      return rows[0]?.fx_spread_bps ?? DEFAULT_FX_SPREAD_BPS;
    });
  }

  /** Support: sets the spread (0 to 5,000 bps; the caller checks the range). */
  async update(tenantId: string, spreadBps: number): Promise<number> {
    if (!Number.isInteger(spreadBps) || spreadBps < 0 || spreadBps > MAX_FX_SPREAD_BPS) {
      throw new Error(`fx_spread_bps must be an integer from 0 to ${MAX_FX_SPREAD_BPS}.`);
    }
    await this.dataSource.query(
      `INSERT INTO fx_settings (tenant_id, fx_spread_bps, updated_at) VALUES ($1, $2, now())
       ON CONFLICT (tenant_id) DO UPDATE SET fx_spread_bps = EXCLUDED.fx_spread_bps, updated_at = now()`,
      [tenantId, spreadBps],
    );
    this.cache.delete(tenantId);
    return this.spreadBps(tenantId);
  }
}
