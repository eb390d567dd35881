import { Injectable } from '@nestjs/common';
import type { AssetQueryRow, AssetSearchCriteria } from 'src/modules/assets/asset-queries';
import type { CatalogueChange } from 'src/modules/assets/catalogue-changes';
import type { PriceOverride } from 'src/modules/pricing/pricing.service';

/** Searches whose rows are kept (least recently used dropped first): a few MB of rows at most. */
export const SEARCH_RESULTS_KEPT = 400;
/** Tenants whose test-mode price overrides are kept. */
export const OVERRIDE_TENANTS_KEPT = 1000;

/**
 * The cache key of a search: every criterion that shapes its rows except the override tenant, as
 * results are read without overrides and each tenant's overrides laid over them.
 */
export function searchKey(criteria: AssetSearchCriteria): string {
  return JSON.stringify([
    criteria.q?.trim() ?? '',
    criteria.status,
    criteria.classes ?? null,
    criteria.country ?? null,
    criteria.markets ?? null,
    criteria.marketCountry ?? null,
    criteria.take,
  ]);
}

/**
 * How a missing entry is loaded. `shared`: one load per key at a time, joined by every such caller
 * (loads through the pool, whose callers hold no connection while they wait). `own`: the caller's
 * own load, joining none and joined by none: a caller inside a transaction holds a pool connection,
 * and waiting there for a load that needs another one could wait forever once every connection
 * is held by such callers (a search's load of a tenant's overrides against 20 placements of that
 * tenant, say). What an own load read is kept like a shared one's.
 */
export type LoadMode = 'shared' | 'own';

/**
 * Asset search results and tenants' test-mode price overrides held in memory while nothing changed
 * them. Trusted only while `live` (this process hears the catalogue notifications, see
 * CatalogueListener); every change heard drops what it may affect and bumps a generation, and a
 * read that started before a change is answered but never kept. Concurrent reads of one missing
 * key share one load. Rows are shared between requests: callers must not modify them.
 */
@Injectable()
export class AssetSearchCache {
  private isLive = false;
  private catalogueGeneration = 0;
  private overridesGeneration = 0;
  private readonly results = new Map<string, AssetQueryRow[]>();
  private readonly loadingResults = new Map<string, Promise<AssetQueryRow[]>>();
  private readonly overrides = new Map<string, ReadonlyMap<string, PriceOverride>>();
  private readonly loadingOverrides = new Map<string, Promise<ReadonlyMap<string, PriceOverride>>>();

  /** True while changes are heard; otherwise nothing is kept and every read goes to the database. */
  get live(): boolean {
    return this.isLive;
  }

  /** Called by the listener: changes are heard from now on (true) or no longer (false). */
  setLive(live: boolean): void {
    this.isLive = live;
    this.apply({ kind: 'catalogue' });
    this.apply({ kind: 'overrides', tenantId: null });
  }

  apply(change: CatalogueChange): void {
    if (change.kind === 'catalogue') {
      this.catalogueGeneration++;
      this.results.clear();
      this.loadingResults.clear();
      return;
    }
    this.overridesGeneration++;
    if (change.tenantId === null) {
      this.overrides.clear();
      this.loadingOverrides.clear();
    } else {
      this.overrides.delete(change.tenantId);
      this.loadingOverrides.delete(change.tenantId);
    }
  }

  /** The rows of a search (see searchKey), kept or loaded. */
  rows(
    key: string,
    load: () => Promise<AssetQueryRow[]>,
    mode: LoadMode = 'shared',
  ): Promise<AssetQueryRow[]> {
    if (!this.isLive) {
      return load();
    }
    const kept = this.results.get(key);
    if (kept) {
      // Map order is insertion order: re-inserting marks the key most recently used.
      this.results.delete(key);
      this.results.set(key, kept);
      return Promise.resolve(kept);
    }
    return this.loaded(
      mode,
      this.loadingResults,
      key,
      load,
      () => this.catalogueGeneration,
      (rows) => {
        if (this.results.size >= SEARCH_RESULTS_KEPT) {
          this.results.delete(this.results.keys().next().value as string);
        }
        this.results.set(key, rows);
      },
    );
  }

  /** A tenant's test-mode price overrides by asset id, kept or loaded. */
  overridesOf(
    tenantId: string,
    load: () => Promise<ReadonlyMap<string, PriceOverride>>,
    mode: LoadMode = 'shared',
  ): Promise<ReadonlyMap<string, PriceOverride>> {
    if (!this.isLive) {
      return load();
    }
    const kept = this.overrides.get(tenantId);
    if (kept) {
      return Promise.resolve(kept);
    }
    return this.loaded(
      mode,
      this.loadingOverrides,
      tenantId,
      load,
      () => this.overridesGeneration,
      (value) => {
        if (this.overrides.size >= OVERRIDE_TENANTS_KEPT) {
          this.overrides.delete(this.overrides.keys().next().value as string);
        }
        this.overrides.set(tenantId, value);
      },
    );
  }

  /**
   * One shared load per missing key at a time (an own load runs apart); its value is kept only if
   * no change was heard (and the listener stayed up) while it ran, as it may have read the state
   * from before the change.
   */
  private loaded<T>(
    mode: LoadMode,
    loading: Map<string, Promise<T>>,
    key: string,
    load: () => Promise<T>,
    generation: () => number,
    keep: (value: T) => void,
  ): Promise<T> {
    if (mode === 'own') {
      const startedAt = generation();
      return load().then((value) => {
        if (this.isLive && generation() === startedAt) {
          keep(value);
        }
        return value;
      });
    }
    const running = loading.get(key);
    if (running) {
      return running;
    }
    const startedAt = generation();
    const pending = load().then(
      (value) => {
        if (loading.get(key) === pending) {
          loading.delete(key);
        }
        if (this.isLive && generation() === startedAt) {
          keep(value);
        }
        return value;
      },
      (err: unknown) => {
        if (loading.get(key) === pending) {
          loading.delete(key);
        }
        throw err;
      },
    );
    loading.set(key, pending);
    return pending;
  }
}
