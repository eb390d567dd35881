import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { DataSource, EntityManager } from 'typeorm';
import { ClockService } from 'src/core/clock/clock.service';
import { ServiceError } from 'src/core/errors/service-error';
import { EventsService } from 'src/core/events/events.service';
import { newId } from 'src/core/ids/ids';
import { JobScheduler } from 'src/core/scheduler/job-scheduler.service';
import { applyAt } from 'src/modules/corporate-actions/action-times';
import { CorporateActionRow, isRatioType } from 'src/modules/corporate-actions/corporate-action.types';
import { actionView, describe } from 'src/modules/corporate-actions/corporate-action-views';
import {
  CorporateActionsRepository,
  Scope,
} from 'src/modules/corporate-actions/corporate-actions.repository';
import {
  CorporateActionTermsError,
  RawTerms,
  validateTerms,
} from 'src/modules/corporate-actions/terms-rules';
import type { AssetQueryRow } from 'src/modules/assets/asset-queries';
import { AssetIdentityChanges } from 'src/modules/assets/asset-identity-changes';
import { AssetsService } from 'src/modules/assets/assets.service';
import { PriceAdjustments } from 'src/modules/assets/price-adjustments';
import { checkReorganization, SHARE_CLASSES } from 'src/modules/corporate-actions/reorganization-terms';
import { getMarket } from 'src/modules/markets/calendar';

/** The clock-driven job of an action in one tenant and mode (corporate-action-jobs.ts). */
export const PROCESS_JOB = 'corporate_actions.process';

/** The outcome of one record of a support import. */
export interface ImportResult {
  id: string;
  result: 'announced' | 'corrected';
  symbol: string;
  type: string;
  ex_date: string;
}

/**
 * Announcements: created by support's import (market-wide: every tenant and mode) or by a tenant's
 * test helper (its test mode only), corrected while announced, withdrawn before processing. Each
 * announcement schedules its processing on the clock of every tenant and mode it reaches and sends
 * `corporate_action.announced` there, in the transaction that stores it.
 */
@Injectable()
export class Announcements {
  constructor(
    private readonly dataSource: DataSource,
    private readonly actions: CorporateActionsRepository,
    private readonly assets: AssetsService,
    private readonly scheduler: JobScheduler,
    private readonly events: EventsService,
    private readonly clock: ClockService,
    private readonly prices: PriceAdjustments,
    private readonly identities: AssetIdentityChanges,
  ) {}

  /** A tenant's test-mode announcement (test helper). */
  async announceForTenant(manager: EntityManager, scope: Scope, raw: RawTerms): Promise<CorporateActionRow> {
    const asset = await this.shareAsset(scope, raw.symbol, manager);
    const terms = await checkReorganization(this.assets, scope, asset, validateTerms(raw), manager);
    const id = newId('corporateAction');
    const at = await this.clock.now(scope, manager);
    await this.actions.insert(manager, {
      ...terms,
      ...this.assetFields(asset),
      id,
      tenantId: scope.tenantId,
      description:
        terms.description ?? describe({ ...terms, symbol: asset.symbol, currency: asset.currency }),
      at,
      appliesAt: applyAt(asset.market, terms.ex_date),
    });
    const row = (await this.actions.find(scope, id, manager)) as CorporateActionRow;
    await this.reach(manager, row, [scope]);
    return row;
  }

  /**
   * Support's import: each record announces a market-wide action, or (with the `id` of one still
   * announced) replaces its terms. One transaction per record; a refused record stops the import
   * with the records before it kept.
   */
  async importRecords(records: RawTerms[]): Promise<ImportResult[]> {
    const results: ImportResult[] = [];
    for (const [index, raw] of records.entries()) {
      try {
        results.push(await this.dataSource.transaction((manager) => this.importOne(manager, raw)));
      } catch (err) {
        const param = err instanceof ServiceError && err.param ? ` (${err.param})` : '';
        throw new Error(`Record ${index}${param}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    return results;
  }

  /** Withdraws an announcement before processing: 409 once it started or ended. */
  async cancel(manager: EntityManager, scope: Scope, id: string): Promise<CorporateActionRow> {
    const row = await this.actions.find(scope, id, manager, true);
    if (!row || row.tenant_id !== scope.tenantId) {
      throw ServiceError.notFound('corporate_action', id);
    }
    const at = await this.clock.now(scope, manager);
    if (!(await this.actions.cancel(manager, id, at))) {
      throw ServiceError.conflict(
        `Corporate action ${id} is ${row.canceled_at ? 'canceled' : 'being processed or processed'}; only an announced action that has not started can be canceled.`,
      );
    }
    await this.prices.set(manager, {
      id,
      assetId: row.asset_id,
      tenantId: row.tenant_id,
      factor: null,
      from: at,
    });
    await this.identities.set(manager, id, null);
    return (await this.actions.find(scope, id, manager)) as CorporateActionRow;
  }

  private async importOne(manager: EntityManager, raw: RawTerms): Promise<ImportResult> {
    const market = { tenantId: '', livemode: true };
    if (typeof raw.id === 'string') {
      const existing = await this.actions.find(market, raw.id, manager, true);
      if (!existing || existing.tenant_id !== null) {
        throw new CorporateActionTermsError('id', `No market-wide corporate action '${raw.id}'.`);
      }
      const target = await this.assets.resolveInScope(market, existing.asset_id, manager);
      const terms = await checkReorganization(
        this.assets,
        market,
        target?.row as AssetQueryRow,
        validateTerms({ ...raw, symbol: undefined }),
        manager,
      );
      const description =
        terms.description ?? describe({ ...terms, symbol: existing.symbol, currency: existing.currency });
      const appliesAt = applyAt(existing.market, terms.ex_date);
      if (!(await this.actions.correct(manager, existing.id, terms, description, appliesAt))) {
        throw new CorporateActionTermsError(
          'id',
          `${existing.id} is canceled or already processing; it cannot be corrected.`,
        );
      }
      const row = (await this.actions.find(market, existing.id, manager)) as CorporateActionRow;
      await this.adjustAsset(manager, row);
      const scopes = await this.actions.everyScope(manager);
      await this.schedule(manager, row, scopes);
      await this.tell(manager, row, scopes, 'corporate_action.updated');
      return { id: row.id, result: 'corrected', symbol: row.symbol, type: row.type, ex_date: row.ex_date };
    }
    const asset = await this.shareAsset(market, raw.symbol, manager);
    const terms = await checkReorganization(this.assets, market, asset, validateTerms(raw), manager);
    const id = newId('corporateAction');
    await this.actions.insert(manager, {
      ...terms,
      ...this.assetFields(asset),
      id,
      tenantId: null,
      description:
        terms.description ?? describe({ ...terms, symbol: asset.symbol, currency: asset.currency }),
      at: new Date(),
      appliesAt: applyAt(asset.market, terms.ex_date),
    });
    const row = (await this.actions.find(market, id, manager)) as CorporateActionRow;
    await this.reach(manager, row, await this.actions.everyScope(manager));
    return { id, result: 'announced', symbol: row.symbol, type: row.type, ex_date: row.ex_date };
  }

  /** Schedules the processing in each scope and tells each that the action was announced. */
  private async reach(manager: EntityManager, row: CorporateActionRow, scopes: Scope[]): Promise<void> {
    await this.adjustAsset(manager, row);
    await this.schedule(manager, row, scopes);
    await this.tell(manager, row, scopes, 'corporate_action.announced');
  }

  private async tell(
    manager: EntityManager,
    row: CorporateActionRow,
    scopes: Scope[],
    event: 'corporate_action.announced' | 'corporate_action.updated',
  ): Promise<void> {
    for (const scope of scopes) {
      await this.events.emit(manager, { ...scope, event, data: { ...actionView(row, scope.livemode) } });
    }
  }

  /** What the action changes about its asset for whoever sees it: prices, symbol, status. */
  private async adjustAsset(manager: EntityManager, row: CorporateActionRow): Promise<void> {
    await this.adjustPrices(manager, row);
    await this.identities.set(manager, row.id, identityChangeOf(row));
  }

  /**
   * From 04:00 of the ex date of a split, reverse split or stock dividend, the asset's simulated
   * prices are divided by new_rate / old_rate for whoever sees the action (removed otherwise).
   */
  private async adjustPrices(manager: EntityManager, row: CorporateActionRow): Promise<void> {
    const ratio = isRatioType(row.type) && row.new_rate && row.old_rate;
    await this.prices.set(manager, {
      id: row.id,
      assetId: row.asset_id,
      tenantId: row.tenant_id,
      factor: ratio ? new Decimal(row.new_rate as string).div(row.old_rate as string).toFixed(18) : null,
      from: applyAt(row.market, row.ex_date),
    });
  }

  /** The job of each scope at 04:00 of the ex date; a corrected ex date gets a job of its own. */
  private async schedule(manager: EntityManager, row: CorporateActionRow, scopes: Scope[]): Promise<void> {
    for (const scope of scopes) {
      await this.scheduler.schedule(manager, {
        ...scope,
        kind: PROCESS_JOB,
        dueAt: applyAt(row.market, row.ex_date),
        payload: { actionId: row.id, step: 'start', exDate: row.ex_date },
        dedupeKey: `${row.id}:start:${row.ex_date}`,
      });
    }
  }

  private async shareAsset(scope: Scope, symbol: unknown, manager: EntityManager): Promise<AssetQueryRow> {
    if (typeof symbol !== 'string' || symbol.trim() === '' || symbol.length > 64) {
      throw new CorporateActionTermsError(
        'symbol',
        'symbol is required: the ticker, id, CUSIP or ISIN of the asset.',
        symbol === undefined || symbol === null,
      );
    }
    const found = await this.assets.resolveInScope(scope, symbol.trim(), manager);
    if (!found) {
      throw new CorporateActionTermsError('symbol', `Unknown asset '${symbol}'.`);
    }
    if (!SHARE_CLASSES.includes(found.row.class) || !getMarket(found.row.market)) {
      throw new CorporateActionTermsError(
        'symbol',
        `${found.row.symbol} is a ${found.row.class}; corporate actions apply to listed equities and ETFs.`,
      );
    }
    return found.row;
  }

  private assetFields(asset: AssetQueryRow) {
    return {
      assetId: asset.id,
      symbol: asset.symbol,
      cusip: asset.b_cusip ?? null,
      currency: asset.currency,
      market: asset.market,
    };
  }
}

/**
 * From 04:00 of the ex date a symbol change gives the asset its new symbol and a merger makes the
 * target inactive and not tradable, for whoever sees the action (nothing for the other types).
 */
function identityChangeOf(row: CorporateActionRow) {
  const common = { assetId: row.asset_id, tenantId: row.tenant_id, from: applyAt(row.market, row.ex_date) };
  switch (row.type) {
    case 'symbol_change':
      return { ...common, newSymbol: row.new_symbol, inactive: false };
    case 'cash_merger':
    case 'stock_merger':
      return { ...common, newSymbol: null, inactive: true };
    case 'cash_dividend':
    case 'stock_dividend':
    case 'stock_split':
    case 'reverse_split':
      return null;
    default: {
      const never: never = row.type;
      throw new Error(`Unknown corporate action type ${String(never)}`);
    }
  }
}
