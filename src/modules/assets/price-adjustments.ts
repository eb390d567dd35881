import { Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { AssetQueryRow } from 'src/modules/assets/asset-queries';
import { KeptTable } from 'src/modules/assets/kept-table';
import type { PriceAdjustment } from 'src/modules/pricing/price-source';

interface StoredAdjustment extends PriceAdjustment {
  tenantId: string | null;
}

/**
 * Split ratios by which an asset's prices are divided from an instant (corporate actions): market-wide
 * ones for everybody, a tenant's own for its test mode only, as price overrides are. The whole table
 * (one row per split) is kept in memory and laid over asset rows as they are read (KeptTable: how
 * reads inside transactions find it).
 */
@Injectable()
export class PriceAdjustments implements OnModuleInit {
  private readonly table: KeptTable<Map<string, StoredAdjustment[]>>;

  constructor(dataSource: DataSource) {
    this.table = new KeptTable(dataSource, (source) => readAdjustments(source));
  }

  /**
   * Loaded before the first request, so no read inside a transaction waits for it. Before the
   * migrations ran (the CLI migrating a new database) the table is missing: the first read loads.
   */
  async onModuleInit(): Promise<void> {
    await this.table.load().catch(() => undefined);
  }

  /** Sets (or replaces) the adjustment an action makes; `factor` null removes it. */
  async set(
    manager: EntityManager,
    input: { id: string; assetId: string; tenantId: string | null; factor: string | null; from: Date },
  ): Promise<void> {
    if (input.factor === null) {
      await manager.query(`DELETE FROM asset_price_adjustments WHERE id = $1`, [input.id]);
    } else {
      await manager.query(
        `INSERT INTO asset_price_adjustments (id, asset_id, tenant_id, factor, effective_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (id) DO UPDATE SET factor = EXCLUDED.factor, effective_at = EXCLUDED.effective_at`,
        [input.id, input.assetId, input.tenantId, input.factor, input.from],
      );
    }
    this.table.forget();
  }

  /** Rows with the adjustments the reader sees (`tenantId`: test mode's tenant, null live). */
  async lay(
    rows: AssetQueryRow[],
    tenantId: string | null,
    manager?: EntityManager,
  ): Promise<AssetQueryRow[]> {
    const all = await this.table.get(manager);
    if (all.size === 0) {
      return rows;
    }
    return rows.map((row) => {
      const own = (all.get(row.id) ?? []).filter((a) => a.tenantId === null || a.tenantId === tenantId);
      return own.length === 0
        ? row
        : { ...row, price_adjustments: own.map((a) => ({ factor: a.factor, from: a.from })) };
    });
  }
}

async function readAdjustments(source: EntityManager | DataSource): Promise<Map<string, StoredAdjustment[]>> {
  const rows: Array<{ asset_id: string; tenant_id: string | null; factor: string; effective_at: Date }> =
    await source.query(
      `SELECT asset_id, tenant_id, trim_scale(factor)::text AS factor, effective_at
         FROM asset_price_adjustments ORDER BY effective_at, id`,
    );
  const map = new Map<string, StoredAdjustment[]>();
  for (const r of rows) {
    const list = map.get(r.asset_id) ?? [];
    list.push({ tenantId: r.tenant_id, factor: r.factor, from: new Date(r.effective_at) });
    map.set(r.asset_id, list);
  }
  return map;
}
