import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import {
  assetLookupQuery,
  AssetQueryRow,
  AssetSearchCriteria,
  assetSearchQuery,
} from 'src/modules/assets/asset-queries';
import { AssetIdentityChanges } from 'src/modules/assets/asset-identity-changes';
import { AssetSearchCache, searchKey } from 'src/modules/assets/asset-search-cache';
import { CatalogueListener } from 'src/modules/assets/catalogue-listener';
import { UUID_PATTERN } from 'src/modules/assets/identifiers';
import { PriceAdjustments } from 'src/modules/assets/price-adjustments';
import type { PriceOverride } from 'src/modules/pricing/pricing.service';

const CUSIP_SHAPE = /^[0-9A-Za-z*@#]{9}$/;
const ISIN_SHAPE = /^[A-Za-z]{2}[A-Za-z0-9]{9}[0-9]$/;
/** Crypto pairs written without the slash: BTCUSD, BTC-USD, btc_usd. */
const CRYPTO_PAIR = /^([A-Za-z0-9]{2,10})[-_]?(USD|USDT|USDC)$/i;

@Injectable()
export class AssetsRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly cache: AssetSearchCache,
    private readonly listener: CatalogueListener,
    private readonly adjustments: PriceAdjustments,
    private readonly identities: AssetIdentityChanges,
  ) {}

  /**
   * Ranked search rows. While catalogue changes are heard, the rows of a search are kept in memory
   * (shared by every tenant) and the caller's test-mode overrides, kept per tenant, laid over them;
   * otherwise one query reads both.
   */
  async search(criteria: AssetSearchCriteria): Promise<AssetQueryRow[]> {
    const rows = await this.adjustments.lay(await this.searchRows(criteria), criteria.overrideTenant);
    return this.withIdentityChanges(rows, criteria);
  }

  /**
   * Symbol changes and mergers as the reader sees them: a renamed asset is found by its new ticker
   * and no longer by its old one, a merged asset is inactive. The same array when nothing applies.
   */
  private async withIdentityChanges(rows: AssetQueryRow[], criteria: AssetSearchCriteria) {
    const tenant = criteria.overrideTenant;
    const laid = await this.identities.lay(rows, tenant);
    const q = criteria.q?.trim().toUpperCase() ?? '';
    const renamed = q ? await this.identities.renamedTo(q, tenant) : [];
    if (laid === rows && renamed.length === 0) {
      return rows;
    }
    const kept = laid.filter((r) => r.status === criteria.status && !(q && foundByFormerSymbol(r, q)));
    const found: AssetQueryRow[] = [];
    for (const id of renamed.filter((id) => !kept.some((r) => r.id === id))) {
      const row = await this.findByRef(id, tenant);
      if (row && row.status === criteria.status && withinFilters(row, criteria)) {
        found.push(row);
      }
    }
    return [...found, ...kept].slice(0, criteria.take);
  }

  private async searchRows(criteria: AssetSearchCriteria): Promise<AssetQueryRow[]> {
    if (!this.cache.live) {
      this.listener.ensureListening();
      return this.query(criteria);
    }
    const rows = await this.cache.rows(searchKey(criteria), () =>
      this.query({ ...criteria, overrideTenant: null }),
    );
    const tenantId = criteria.overrideTenant;
    if (tenantId === null) {
      return rows;
    }
    const overrides = await this.cache.overridesOf(tenantId, () => this.overridesOf(tenantId));
    if (overrides.size === 0) {
      return rows;
    }
    return rows.map((row) => {
      const override = overrides.get(row.id);
      return override ? { ...row, override_price: override.price, override_set_at: override.setAt } : row;
    });
  }

  private query(criteria: AssetSearchCriteria): Promise<AssetQueryRow[]> {
    const { text, values } = assetSearchQuery(criteria);
    return this.dataSource.query(text, values);
  }

  /** A tenant's test-mode price overrides by asset id. */
  private async overridesOf(
    tenantId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<ReadonlyMap<string, PriceOverride>> {
    const rows: { asset_id: string; price: string; updated_at: Date }[] = await manager.query(
      `SELECT "asset_id", "price", "updated_at" FROM "asset_price_overrides" WHERE "tenant_id" = $1`,
      [tenantId],
    );
    return new Map(rows.map((row) => [row.asset_id, { price: row.price, setAt: row.updated_at }]));
  }

  /**
   * One asset by id (uuid or CUSIP, any case), ISIN, ticker (case-insensitive; US primary listings
   * first when several markets share it), or a crypto pair without its slash. Pass a transaction's
   * manager to see the overrides it has written.
   */
  async findByRef(
    ref: string,
    overrideTenant: string | null,
    manager?: EntityManager,
  ): Promise<AssetQueryRow | null> {
    return this.seenAs(ref, overrideTenant, (r) => this.lookUp(r, overrideTenant, manager), manager);
  }

  /**
   * The asset a reader finds under `ref`, split ratios and identity changes laid over it: a ticker
   * given by a symbol change finds the renamed asset, the ticker it replaced finds nothing.
   */
  private async seenAs(
    ref: string,
    overrideTenant: string | null,
    lookUp: (ref: string) => Promise<AssetQueryRow | null>,
    /** The caller's transaction, if any: what is not in memory is read through it. */
    manager?: EntityManager,
  ): Promise<AssetQueryRow | null> {
    const [renamed] = await this.identities.renamedTo(ref, overrideTenant, manager);
    const raw = await lookUp(renamed ?? ref);
    if (!raw) {
      return null;
    }
    const [row] = await this.identities.lay(
      await this.adjustments.lay([raw], overrideTenant, manager),
      overrideTenant,
      manager,
    );
    return row.former_symbol?.toUpperCase() === ref.trim().toUpperCase() ? null : row;
  }

  private async lookUp(
    ref: string,
    overrideTenant: string | null,
    manager?: EntityManager,
  ): Promise<AssetQueryRow | null> {
    const value = ref.trim();
    if (value === '' || value.length > 64) {
      return null;
    }
    const attempts: Array<['id' | 'isin' | 'symbol', string]> = [];
    if (UUID_PATTERN.test(value)) {
      attempts.push(['id', value.toLowerCase()]);
    } else if (CUSIP_SHAPE.test(value)) {
      attempts.push(['id', value.toUpperCase()]);
    }
    attempts.push(['symbol', value]);
    if (ISIN_SHAPE.test(value)) {
      attempts.push(['isin', value]);
    }
    const pair = CRYPTO_PAIR.exec(value);
    if (pair && !value.includes('/')) {
      attempts.push(['symbol', `${pair[1]}/${pair[2]}`]);
    }
    for (const [kind, candidate] of attempts) {
      const { text, values } = assetLookupQuery(kind, candidate, overrideTenant);
      const rows: AssetQueryRow[] = await (manager ?? this.dataSource).query(text, values);
      if (rows.length > 0) {
        return rows[0];
      }
    }
    return null;
  }

  /**
   * findByRef as committed, for the hot path of order placement: while catalogue changes are heard
   * the asset rows of a reference are kept in memory (shared by every tenant, dropped on any
   * catalogue change) and the tenant's kept test-mode overrides laid over them. A missing entry is
   * loaded through `manager`, the caller's own connection, and never by joining another caller's
   * load (a second pool connection per request, or a search's load through the pool, could leave
   * concurrent requests waiting on each other: AssetSearchCache's `own` loads).
   */
  async findKeptByRef(
    ref: string,
    overrideTenant: string | null,
    manager: EntityManager,
  ): Promise<AssetQueryRow | null> {
    if (!this.cache.live) {
      this.listener.ensureListening();
      return this.findByRef(ref, overrideTenant, manager);
    }
    const row = await this.seenAs(
      ref,
      overrideTenant,
      async (r) => {
        const [kept] = await this.cache.rows(
          `ref:${r.trim()}`,
          async () => {
            const found = await this.lookUp(r, null, manager);
            return found ? [found] : [];
          },
          'own',
        );
        return kept ?? null;
      },
      manager,
    );
    if (!row || overrideTenant === null) {
      return row;
    }
    const overrides = await this.cache.overridesOf(
      overrideTenant,
      () => this.overridesOf(overrideTenant, manager),
      'own',
    );
    const override = overrides.get(row.id);
    return override ? { ...row, override_price: override.price, override_set_at: override.setAt } : row;
  }

  /** Sets (or with price null removes) a tenant's test-mode price of an asset. */
  async setOverride(
    manager: EntityManager,
    tenantId: string,
    assetId: string,
    price: string | null,
  ): Promise<void> {
    if (price === null) {
      await manager.query(`DELETE FROM "asset_price_overrides" WHERE "tenant_id" = $1 AND "asset_id" = $2`, [
        tenantId,
        assetId,
      ]);
      return;
    }
    await manager.query(
      `INSERT INTO "asset_price_overrides" ("tenant_id", "asset_id", "price") VALUES ($1, $2, $3)
       ON CONFLICT ("tenant_id", "asset_id") DO UPDATE SET "price" = EXCLUDED."price", "updated_at" = clock_timestamp()`,
      [tenantId, assetId, price],
    );
  }
}

/** A renamed row a search found only through the ticker it no longer has. */
function foundByFormerSymbol(row: AssetQueryRow, q: string): boolean {
  return (
    row.former_symbol !== undefined &&
    row.former_symbol.toUpperCase().startsWith(q) &&
    !row.symbol.toUpperCase().startsWith(q) &&
    !row.name.toUpperCase().includes(q)
  );
}

/** Whether a row found by id passes a search's filters other than its text. */
function withinFilters(row: AssetQueryRow, c: AssetSearchCriteria): boolean {
  return (
    (!c.classes || c.classes.includes(row.class)) &&
    (!c.country || row.country === c.country) &&
    (!c.markets || c.markets.includes(row.market)) &&
    (!c.marketCountry || row.market_country === c.marketCountry)
  );
}
