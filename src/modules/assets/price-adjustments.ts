import { Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { AssetQueryRow } from 'src/modules/assets/asset-queries';
import type { PriceAdjustment } from 'src/modules/pricing/price-source';

/** Other processes see a change within about this long; the writing process at once. */
const REFRESH_MS = 2000;

interface StoredAdjustment extends PriceAdjustment {
  tenantId: string | null;
}

/**
 * Split ratios by which an asset's prices are divided from an instant (corporate actions): market-wide
 * ones for everybody, a tenant's own for its test mode only, as price overrides are. The whole table
 * (one row per split) is kept in memory and laid over asset rows as they are read.
 *
 * Reads happen inside placements' transactions, each holding a pool connection: an expired copy
 * is therefore served while a refresh runs beside it (never awaited), or 20 concurrent placements
 * would each wait for a 21st connection that none of them frees. Only the first read and the
 * first read after this process changed the table wait for the load (a reader inside a transaction
 * then reads through its own connection).
 */
@Injectable()
export class PriceAdjustments implements OnModuleInit {
  private current: Map<string, StoredAdjustment[]> | null = null;
  private loadedAt = 0;
  private loading: Promise<Map<string, StoredAdjustment[]>> | null = null;

  constructor(private readonly dataSource: DataSource) {}

  /**
   * Loaded before the first request, so no read inside a transaction waits for it. Before the
   * migrations ran (the CLI migrating a new database) the table is missing: the first read loads.
   */
  async onModuleInit(): Promise<void> {
    await this.load().catch(() => undefined);
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
    this.current = null;
  }

  /** Rows with the adjustments the reader sees (`tenantId`: test mode's tenant, null live). */
  async lay(
    rows: AssetQueryRow[],
    tenantId: string | null,
    manager?: EntityManager,
  ): Promise<AssetQueryRow[]> {
    const all = await this.all(manager);
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

  /**
   * The adjustments in memory, or loaded. A reader inside a transaction (`manager`) reads through
   * its own connection when they are not in memory, as AssetIdentityChanges does, and a load
   * through the pool starts beside it; its read is not kept.
   */
  private all(manager?: EntityManager): Promise<Map<string, StoredAdjustment[]>> {
    if (this.current === null) {
      if (manager) {
        this.load().catch(() => undefined);
        return this.read(manager, false);
      }
      return this.load();
    }
    if (Date.now() - this.loadedAt > REFRESH_MS) {
      this.load().catch(() => undefined);
    }
    return Promise.resolve(this.current);
  }

  private load(): Promise<Map<string, StoredAdjustment[]>> {
    this.loading ??= this.read().finally(() => {
      this.loading = null;
    });
    return this.loading;
  }

  private async read(
    source: EntityManager | DataSource = this.dataSource,
    keep = true,
  ): Promise<Map<string, StoredAdjustment[]>> {
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
    if (keep) {
      this.current = map;
      this.loadedAt = Date.now();
    }
    return map;
  }
}
