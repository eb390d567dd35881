import { Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource, EntityManager, QueryRunner, TransactionCommitEvent } from 'typeorm';
import { ClockService } from 'src/core/clock/clock.service';
import type { AssetQueryRow } from 'src/modules/assets/asset-queries';
import { KeptTable } from 'src/modules/assets/kept-table';

interface IdentityChange {
  id: string;
  assetId: string;
  tenantId: string | null;
  newSymbol: string | null;
  inactive: boolean;
  from: Date;
}

interface Loaded {
  /** By asset id, oldest first. */
  byAsset: Map<string, IdentityChange[]>;
  /** Asset ids by every new symbol (upper case) a change gives. */
  byNewSymbol: Map<string, string[]>;
}

/** What a reader of an asset row sees after the changes visible to it. */
export interface IdentityView {
  symbol: string;
  inactive: boolean;
}

/**
 * Symbol changes and mergers laid over asset rows (docs/decisions.md, Corporate actions): from 04:00 of
 * the ex date by the reader's clock, a renamed asset answers to its new symbol only and a merged one
 * is inactive and not tradable. Market-wide changes reach everybody, a tenant's own its test mode
 * only, as price overrides and split ratios do. The whole table is small and kept in memory as
 * split ratios are (KeptTable).
 */
@Injectable()
export class AssetIdentityChanges implements OnModuleInit {
  private readonly table: KeptTable<Loaded>;
  /** Transactions holding a change not yet committed. */
  private readonly pending = new WeakSet<QueryRunner>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: ClockService,
  ) {
    this.table = new KeptTable(dataSource, (source) => readChanges(source));
  }

  async onModuleInit(): Promise<void> {
    // This process sees its own change from its commit on: forgetting the table when the change is
    // written (before the commit) let a read running meanwhile keep the old rows for REFRESH_MS.
    this.dataSource.subscribers.push({
      afterTransactionCommit: (event: TransactionCommitEvent) => {
        if (
          event.queryRunner &&
          this.pending.has(event.queryRunner) &&
          !event.queryRunner.isTransactionActive
        ) {
          this.pending.delete(event.queryRunner);
          this.table.forget();
        }
      },
    });
    await this.table.load().catch(() => undefined);
  }

  /** Sets (or replaces) the change an action makes; `change` null removes it. */
  async set(manager: EntityManager, id: string, change: Omit<IdentityChange, 'id'> | null): Promise<void> {
    if (change === null) {
      await manager.query(`DELETE FROM asset_identity_changes WHERE id = $1`, [id]);
    } else {
      await manager.query(
        `INSERT INTO asset_identity_changes (id, asset_id, tenant_id, new_symbol, inactive, effective_at)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (id) DO UPDATE SET new_symbol = EXCLUDED.new_symbol, inactive = EXCLUDED.inactive,
           effective_at = EXCLUDED.effective_at`,
        [id, change.assetId, change.tenantId, change.newSymbol, change.inactive, change.from],
      );
    }
    if (manager.queryRunner?.isTransactionActive) {
      this.pending.add(manager.queryRunner);
    } else {
      this.table.forget();
    }
  }

  /**
   * Rows as the reader sees them (`tenantId`: test mode's tenant, null live): the same array when no
   * change touches them. A renamed row keeps its stored ticker in `former_symbol`.
   */
  async lay(
    rows: AssetQueryRow[],
    tenantId: string | null,
    manager?: EntityManager,
  ): Promise<AssetQueryRow[]> {
    const loaded = await this.table.get(manager);
    if (loaded.byAsset.size === 0 || !rows.some((r) => loaded.byAsset.has(r.id))) {
      return rows;
    }
    const now = await this.nowOf(tenantId, manager);
    return rows.map((row) => {
      const view = this.viewOf(loaded, row.id, row.symbol, tenantId, now);
      if (!view) {
        return row;
      }
      const renamed = view.symbol !== row.symbol;
      return {
        ...row,
        symbol: view.symbol,
        ...(renamed ? { former_symbol: row.symbol } : {}),
        ...(view.inactive ? { status: 'inactive' as const, tradable: false } : {}),
      };
    });
  }

  /** Ids of the assets a reader sees under `symbol` through a symbol change. */
  async renamedTo(symbol: string, tenantId: string | null, manager?: EntityManager): Promise<string[]> {
    const loaded = await this.table.get(manager);
    const ids = loaded.byNewSymbol.get(symbol.trim().toUpperCase()) ?? [];
    if (ids.length === 0) {
      return [];
    }
    const now = await this.nowOf(tenantId, manager);
    return ids.filter(
      (id) =>
        this.viewOf(loaded, id, '', tenantId, now)?.symbol.toUpperCase() === symbol.trim().toUpperCase(),
    );
  }

  private viewOf(
    loaded: Loaded,
    assetId: string,
    symbol: string,
    tenantId: string | null,
    now: Date,
  ): IdentityView | null {
    const visible = (loaded.byAsset.get(assetId) ?? []).filter(
      (c) => (c.tenantId === null || c.tenantId === tenantId) && c.from.getTime() <= now.getTime(),
    );
    if (visible.length === 0) {
      return null;
    }
    return visible.reduce<IdentityView>(
      (view, c) => ({ symbol: c.newSymbol ?? view.symbol, inactive: view.inactive || c.inactive }),
      { symbol, inactive: false },
    );
  }

  /** The reader's now: live mode real time, a test mode its tenant's clock. */
  private nowOf(tenantId: string | null, manager?: EntityManager): Promise<Date> {
    return tenantId === null
      ? this.clock.now({ tenantId: '', livemode: true })
      : this.clock.now({ tenantId, livemode: false }, manager);
  }
}

async function readChanges(source: EntityManager | DataSource): Promise<Loaded> {
  const rows: Array<{
    id: string;
    asset_id: string;
    tenant_id: string | null;
    new_symbol: string | null;
    inactive: boolean;
    effective_at: Date;
  }> = await source.query(
    `SELECT id, asset_id, tenant_id, new_symbol, inactive, effective_at
       FROM asset_identity_changes ORDER BY effective_at, id`,
  );
  const loaded: Loaded = { byAsset: new Map(), byNewSymbol: new Map() };
  for (const r of rows) {
    const change: IdentityChange = {
      id: r.id,
      assetId: r.asset_id,
      tenantId: r.tenant_id,
      newSymbol: r.new_symbol,
      inactive: r.inactive,
      from: new Date(r.effective_at),
    };
    loaded.byAsset.set(r.asset_id, [...(loaded.byAsset.get(r.asset_id) ?? []), change]);
    if (r.new_symbol) {
      const key = r.new_symbol.toUpperCase();
      loaded.byNewSymbol.set(key, [...new Set([...(loaded.byNewSymbol.get(key) ?? []), r.asset_id])]);
    }
  }
  return loaded;
}
