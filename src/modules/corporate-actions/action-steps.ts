import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import type { EntityManager } from 'typeorm';
import { EventsService } from 'src/core/events/events.service';
import { AccountHolders } from 'src/modules/accounts/account-holders';
import { AssetsService } from 'src/modules/assets/assets.service';
import { applyAt, eligibilityCutoff } from 'src/modules/corporate-actions/action-times';
import { Applications } from 'src/modules/corporate-actions/applications';
import {
  cancelsOpenOrders,
  type CorporateActionRow,
} from 'src/modules/corporate-actions/corporate-action.types';
import { actionView } from 'src/modules/corporate-actions/corporate-action-views';
import {
  CorporateActionsRepository,
  Scope,
} from 'src/modules/corporate-actions/corporate-actions.repository';
import { CorporateActionSettings } from 'src/modules/corporate-actions/corporate-action-settings';
import { EntitlementsRepository } from 'src/modules/corporate-actions/entitlements.repository';
import { PricingService } from 'src/modules/pricing/pricing.service';
import { Acquirer, Reorganizations } from 'src/modules/corporate-actions/reorganizations';
import { HolderPosition, PositionAdjustments } from 'src/modules/trading/position-adjustments';

/** Accounts per job: one transaction never covers more. */
export const BATCH_SIZE = 500;

/** The reason orders canceled by a corporate action carry. */
export const CANCEL_REASON = 'corporate_action';

/**
 * One batch of each step of an action in a tenant and mode, inside the job's transaction. Each
 * answers the cursor of the next batch (the last account id) when its batch was full, else null.
 */
@Injectable()
export class ActionSteps {
  constructor(
    private readonly actions: CorporateActionsRepository,
    private readonly entitlements: EntitlementsRepository,
    private readonly positions: PositionAdjustments,
    private readonly holders: AccountHolders,
    private readonly applications: Applications,
    private readonly reorganizations: Reorganizations,
    private readonly settings: CorporateActionSettings,
    private readonly assets: AssetsService,
    private readonly pricing: PricingService,
    private readonly events: EventsService,
  ) {}

  /** Cash dividend: entitlements (`pending`) of the holders at the close before the ex date. */
  async snapshot(
    manager: EntityManager,
    scope: Scope,
    action: CorporateActionRow,
    cursor: string | null,
    now: Date,
  ): Promise<string | null> {
    const cutoff = eligibilityCutoff(action.market, action.ex_date);
    const rows = await this.positions.eligibleAt(manager, scope, action.asset_id, cutoff, cursor, BATCH_SIZE);
    const holders = await this.holders.of(
      manager,
      rows.map((r) => r.account_id),
    );
    await this.entitlements.claim(
      manager,
      scope,
      action.id,
      rows.map((r) => ({
        accountId: r.account_id,
        investorId: holders.get(r.account_id)?.investorId ?? null,
        eligible: r.eligible_quantity,
      })),
      now,
    );
    return rows.length === BATCH_SIZE ? rows[rows.length - 1].account_id : null;
  }

  /** Cash dividend: pays a batch of pending entitlements (after the cursor's account). */
  async pay(
    manager: EntityManager,
    scope: Scope,
    action: CorporateActionRow,
    cursor: string | null,
    now: Date,
  ): Promise<string | null> {
    const pending = await this.entitlements.pending(manager, scope, action.id, cursor, BATCH_SIZE);
    const holders = await this.holders.of(
      manager,
      pending.map((p) => p.account_id),
    );
    const bps = await this.settings.withholdingBps(scope.tenantId, manager);
    const basis = await this.positions.basisOf(
      manager,
      scope,
      action.asset_id,
      pending.map((p) => p.account_id),
    );
    const taxResidence = new Map(
      pending.map((p) => [p.account_id, holders.get(p.account_id)?.taxResidence ?? null]),
    );
    await this.applications.payDividends(manager, scope, action, pending, {
      withholdingBps: bps,
      taxResidence,
      costBasis: basis,
      now,
    });
    return pending.length === BATCH_SIZE ? pending[pending.length - 1].account_id : null;
  }

  /**
   * Before an action applies to holders: cancels a batch of the asset's open orders (a split,
   * reverse split, stock dividend or merger; true when there may be more), or gives them the new
   * symbol (a symbol change leaves them open).
   */
  async settleOpenOrders(
    manager: EntityManager,
    scope: Scope,
    action: CorporateActionRow,
    now: Date,
  ): Promise<boolean> {
    if (!cancelsOpenOrders(action.type)) {
      if (action.type === 'symbol_change') {
        await this.positions.renameOpenOrdersOfAsset(
          manager,
          scope,
          action.asset_id,
          action.new_symbol as string,
          now,
        );
      }
      return false;
    }
    const canceled = await this.positions.cancelOpenOrdersOfAsset(
      manager,
      scope,
      action.asset_id,
      CANCEL_REASON,
      now,
      BATCH_SIZE,
    );
    return canceled === BATCH_SIZE;
  }

  /** Splits, reverse splits, stock dividends, symbol changes, mergers: a batch of holders (locked). */
  async apply(
    manager: EntityManager,
    scope: Scope,
    action: CorporateActionRow,
    cursor: string | null,
    now: Date,
  ): Promise<string | null> {
    // An order placed since the orders step (before the holders are locked) goes too, so no
    // position keeps units reserved for an order at the old terms.
    await this.settleOpenOrders(manager, scope, action, now);
    const rows = await this.positions.holders(manager, scope, action.asset_id, cursor, BATCH_SIZE);
    if (rows.length === 0) {
      return null;
    }
    const applyTo = await this.applierOf(manager, scope, action, now);
    const holders = await this.holders.of(
      manager,
      rows.map((r) => r.account_id),
    );
    const investorIds = new Map(
      rows.map((r) => [r.account_id, holders.get(r.account_id)?.investorId ?? null]),
    );
    await applyTo(rows, investorIds);
    return rows.length === BATCH_SIZE ? rows[rows.length - 1].account_id : null;
  }

  /** What applies the action to a batch of holders, with what every holder of the batch shares. */
  private async applierOf(
    manager: EntityManager,
    scope: Scope,
    action: CorporateActionRow,
    now: Date,
  ): Promise<(rows: HolderPosition[], investorIds: Map<string, string | null>) => Promise<void>> {
    switch (action.type) {
      case 'stock_dividend':
      case 'stock_split':
      case 'reverse_split': {
        const { asset, previousClose } = await this.eveOf(manager, scope, action, action.asset_id);
        return (rows, investorIds) =>
          this.applications.applyRatios(manager, scope, action, rows, {
            investorIds,
            fractionable: asset.row.fractionable,
            previousClose,
            now,
          });
      }
      case 'symbol_change':
        return (rows, investorIds) =>
          this.reorganizations.applySymbolChanges(manager, scope, action, rows, { investorIds, now });
      case 'cash_merger':
        return (rows, investorIds) =>
          this.reorganizations.applyCashMergers(manager, scope, action, rows, { investorIds, now });
      case 'stock_merger': {
        const { asset, previousClose } = await this.eveOf(
          manager,
          scope,
          action,
          action.new_asset_id as string,
        );
        const acquirer: Acquirer = {
          assetId: asset.row.id,
          symbol: asset.row.symbol,
          assetClass: asset.row.class,
          currency: asset.row.currency,
          fractionable: asset.row.fractionable,
          previousClose,
        };
        return (rows, investorIds) =>
          this.reorganizations.applyStockMergers(manager, scope, action, rows, {
            investorIds,
            now,
            acquirer,
          });
      }
      case 'cash_dividend':
        throw new Error(`A cash dividend (${action.id}) is paid, not applied to positions.`);
      default: {
        const never: never = action.type;
        throw new Error(`Unknown corporate action type ${String(never)}`);
      }
    }
  }

  /** An asset and its previous close before the ex date, as it stood before a split divided its prices. */
  private async eveOf(manager: EntityManager, scope: Scope, action: CorporateActionRow, assetId: string) {
    const asset = await this.assets.resolveInScope(scope, assetId, manager);
    if (!asset) {
      throw new Error(`Asset ${assetId} of ${action.id} is gone.`);
    }
    const eve = new Date(applyAt(action.market, action.ex_date).getTime() - 1);
    const quote = await this.pricing.quote(asset.priced, asset.override, eve);
    return { asset, previousClose: new Decimal(quote.previousClose) };
  }

  /** Every account is done: the tenant and mode's action is processed. */
  async finish(manager: EntityManager, scope: Scope, action: CorporateActionRow, now: Date): Promise<void> {
    if (await this.actions.finish(manager, scope, action.id, now)) {
      const row = (await this.actions.find(scope, action.id, manager)) as CorporateActionRow;
      await this.events.emit(manager, {
        ...scope,
        event: 'corporate_action.processed',
        data: { ...actionView(row, scope.livemode) },
      });
    }
  }
}
