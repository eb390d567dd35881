import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Principal } from 'src/core/auth/principal';
import { ClockService } from 'src/core/clock/clock.service';
import { ServiceError } from 'src/core/errors/service-error';
import { overrideOf, pricedAssetOf, AssetPresenter } from 'src/modules/assets/asset-presenter';
import type { AssetQueryRow } from 'src/modules/assets/asset-queries';
import { AssetsRepository } from 'src/modules/assets/assets.repository';
import type { AssetDto, LegacyAssetDto, LegacyAssetSearchResultDto } from 'src/modules/assets/dto/asset.dto';
import {
  LEGACY_SEARCH_LIMIT,
  LegacySearchAssetsQuery,
  SEARCH_LIMIT,
  SearchAssetsQuery,
} from 'src/modules/assets/dto/search-assets.query';
import { marketCodeFromName } from 'src/modules/assets/market-names';
import { validateQuery } from 'src/modules/assets/query-validation';
import { SearchBodies } from 'src/modules/assets/search-bodies';
import type { PricedAsset } from 'src/modules/pricing/price-source';
import type { PriceOverride } from 'src/modules/pricing/pricing.service';

/** An asset found for another module: its stored row, price-engine view and the caller's override. */
export interface ResolvedAsset {
  row: AssetQueryRow;
  priced: PricedAsset;
  override: PriceOverride | null;
}

/** Test-mode price overrides belong to the tenant; live keys never see them. */
export function overrideTenantOf(principal: Principal): string | null {
  return principal.livemode ? null : principal.tenantId;
}

/** JSON text of toList(url, data, hasMore) from the JSON texts of its items. */
export function listJson(url: string, data: string[], hasMore: boolean): string {
  return `{"object":"list","url":${JSON.stringify(url)},"has_more":${hasMore},"data":[${data.join(',')}]}`;
}

function legacyItem(row: AssetQueryRow): LegacyAssetDto {
  return {
    id: row.id,
    class: row.class,
    market: row.market,
    symbol: row.symbol,
    name: row.name,
    status: row.status,
    tradable: row.tradable,
    marginable: row.marginable,
    shortable: row.shortable,
    easy_to_borrow: row.easy_to_borrow,
    fractionable: row.fractionable,
  };
}

@Injectable()
export class AssetsService {
  constructor(
    private readonly repository: AssetsRepository,
    private readonly presenter: AssetPresenter,
    private readonly clock: ClockService,
    private readonly bodies: SearchBodies,
  ) {}

  /**
   * Description A: list envelope of asset resources, as encoded JSON: the same document `toList` would
   * serialise to. The text of each resource is kept between searches (AssetPresenter.presentJson) and
   * the whole answer of a shared result list per minute (SearchBodies).
   */
  async search(principal: Principal, raw: unknown, url: string): Promise<Buffer> {
    const query = validateQuery(SearchAssetsQuery, raw);
    const limit = query.limit ?? SEARCH_LIMIT.default;
    const rows = await this.repository.search({
      q: query.q,
      status: query.status ?? 'active',
      classes: query.class ? [query.class] : undefined,
      country: query.country?.toLowerCase(),
      take: limit + 1,
      overrideTenant: overrideTenantOf(principal),
    });
    const at = await this.clock.now(principal);
    const variant = `${limit}|${principal.livemode}|${url}`;
    const kept = this.bodies.get(rows, variant, at);
    if (kept) {
      return kept;
    }
    const data = await this.presenter.presentJson(rows.slice(0, limit), principal.livemode, at);
    const body = Buffer.from(listJson(url, data, rows.length > limit));
    this.bodies.keep(rows, variant, at, body);
    return body;
  }

  /** Description B (legacy alias): `{status: "success", data, count}`. */
  async legacySearch(raw: unknown): Promise<LegacyAssetSearchResultDto> {
    const query = validateQuery(LegacySearchAssetsQuery, raw);
    let market: string | undefined;
    if (query.market !== undefined) {
      market = marketCodeFromName(query.market);
      if (!market) {
        throw ServiceError.invalid(
          'market',
          `Unknown market '${query.market}'. Use a code such as XNAS or a name such as NASDAQ.`,
        );
      }
    }
    const rows = await this.repository.search({
      q: query.q,
      status: query.status ?? 'active',
      classes:
        query.asset_class === 'us_equity'
          ? ['equity', 'etf']
          : query.asset_class === 'crypto'
            ? ['cryptocurrency']
            : undefined,
      marketCountry: query.asset_class === 'us_equity' ? 'US' : undefined,
      markets: market ? [market] : undefined,
      take: query.limit ?? LEGACY_SEARCH_LIMIT.default,
      overrideTenant: null,
    });
    const data = rows.map(legacyItem);
    return { status: 'success', data, count: data.length };
  }

  /** One asset resource by id, ticker, CUSIP or ISIN. */
  async get(principal: Principal, ref: string): Promise<AssetDto> {
    const { row } = await this.resolve(principal, ref);
    return this.presenter.presentOne(row, principal.livemode, await this.clock.now(principal));
  }

  /** For other modules (market data, trading): the asset behind a reference, or 404. */
  async resolve(principal: Principal, ref: string): Promise<ResolvedAsset> {
    const row = await this.repository.findByRef(ref, overrideTenantOf(principal));
    if (!row) {
      throw ServiceError.notFound('asset', ref);
    }
    return { row, priced: pricedAssetOf(row), override: overrideOf(row) };
  }

  /**
   * For work outside a request (the trading engine): the asset behind a reference with the test-mode
   * override of a tenant, or null.
   */
  async resolveInScope(
    scope: { tenantId: string; livemode: boolean },
    ref: string,
    manager?: EntityManager,
  ): Promise<ResolvedAsset | null> {
    const row = await this.repository.findByRef(ref, scope.livemode ? null : scope.tenantId, manager);
    return row ? { row, priced: pricedAssetOf(row), override: overrideOf(row) } : null;
  }

  /**
   * resolveInScope for order placement: reference data and test-mode overrides as committed, kept in
   * memory while catalogue changes are heard (AssetsRepository.findKeptByRef).
   */
  async resolveKeptInScope(
    scope: { tenantId: string; livemode: boolean },
    ref: string,
    manager: EntityManager,
  ): Promise<ResolvedAsset | null> {
    const row = await this.repository.findKeptByRef(ref, scope.livemode ? null : scope.tenantId, manager);
    return row ? { row, priced: pricedAssetOf(row), override: overrideOf(row) } : null;
  }

  /** Asset resources of resolved assets as of one instant (default: the caller's clock now). */
  async present(principal: Principal, rows: AssetQueryRow[], at?: Date): Promise<AssetDto[]> {
    return this.presenter.present(rows, principal.livemode, at ?? (await this.clock.now(principal)));
  }
}
