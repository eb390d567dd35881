import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import type { EntityManager } from 'typeorm';
import { AppliedChange, fractionSoldOf } from 'src/modules/corporate-actions/application-activities';
import { AppliedChanges } from 'src/modules/corporate-actions/applied-changes';
import { payFromClearing } from 'src/modules/corporate-actions/clearing-payments';
import type { CorporateActionRow } from 'src/modules/corporate-actions/corporate-action.types';
import type { Scope } from 'src/modules/corporate-actions/corporate-actions.repository';
import {
  cashMergerOutcome,
  stockMergerOutcome,
  StockMergerOutcome,
} from 'src/modules/corporate-actions/entitlement-math';
import { EntitlementsRepository, Outcome } from 'src/modules/corporate-actions/entitlements.repository';
import { LedgerService } from 'src/modules/ledger/ledger.service';
import { HolderPosition, PositionAdjustments, PositionAsset } from 'src/modules/trading/position-adjustments';

export interface ReorganizationContext {
  investorId: string | null;
  now: Date;
}

/** A stock merger's acquirer as the application needs it. */
export interface Acquirer {
  assetId: string;
  symbol: string;
  assetClass: string;
  currency: string;
  fractionable: boolean;
  /** The acquirer's previous close before the ex date (a fraction's cash in lieu). */
  previousClose: Decimal;
}

const ZERO_CASH = { cash: '0', withholding: '0', netCash: '0', cashInLieu: '0' };

/**
 * Symbol changes and mergers applied to one holder, inside the batch's transaction (as
 * Applications does for dividends and splits): the entitlement claimed first (the unique key that
 * makes a retried batch apply nothing), then the position change, the journals
 * (`ca:{action}:{account}:merger_cash|cash_in_lieu`), the entitlement's outcome, the activities
 * and `corporate_action.applied`.
 */
@Injectable()
export class Reorganizations {
  constructor(
    private readonly entitlements: EntitlementsRepository,
    private readonly positions: PositionAdjustments,
    private readonly ledger: LedgerService,
    private readonly changes: AppliedChanges,
  ) {}

  /** The position takes the new symbol; quantity, cost basis and dates stay. */
  async applySymbolChange(
    manager: EntityManager,
    scope: Scope,
    action: CorporateActionRow,
    position: HolderPosition,
    ctx: ReorganizationContext,
  ): Promise<void> {
    if (!(await this.claim(manager, scope, action, position, ctx))) {
      return;
    }
    const accountId = position.account_id;
    await this.positions.rename(manager, scope, accountId, action.asset_id, action.new_symbol as string);
    const outcome: Outcome = { ...ZERO_CASH, quantityChange: '0', status: 'applied', at: ctx.now };
    await this.finish(manager, scope, action, position, ctx, outcome, {
      quantityAfter: position.quantity,
      costBasisAfter: new Decimal(position.total_cost_basis).toFixed(),
    });
  }

  /** The position is closed at cash_rate per share, realizing cash − its cost basis. */
  async applyCashMerger(
    manager: EntityManager,
    scope: Scope,
    action: CorporateActionRow,
    position: HolderPosition,
    ctx: ReorganizationContext,
  ): Promise<void> {
    if (!(await this.claim(manager, scope, action, position, ctx))) {
      return;
    }
    const accountId = position.account_id;
    const result = cashMergerOutcome({
      quantity: position.quantity,
      totalCostBasis: position.total_cost_basis,
      cashRate: action.cash_rate as string,
      currency: action.currency,
    });
    await this.positions.adjust(
      manager,
      scope,
      accountId,
      action.asset_id,
      { quantity: '0', totalCostBasis: '0' },
      ctx.now,
    );
    if (result.cash.gt(0)) {
      await payFromClearing(this.ledger, manager, scope, {
        action,
        accountId,
        what: 'merger_cash',
        amount: result.cash,
        description:
          `Cash merger: ${position.quantity} ${action.symbol} × ${action.cash_rate} ${action.currency}; ` +
          `basis ${new Decimal(position.total_cost_basis).toFixed()}, realized ${result.realizedGainLoss.toFixed()}`,
        at: ctx.now,
      });
    }
    const cash = result.cash.toFixed();
    const outcome: Outcome = {
      ...ZERO_CASH,
      cash,
      netCash: cash,
      quantityChange: new Decimal(position.quantity).neg().toFixed(),
      status: 'applied',
      at: ctx.now,
    };
    await this.finish(manager, scope, action, position, ctx, outcome, {
      quantityAfter: '0',
      costBasisAfter: '0',
    });
  }

  /**
   * The position becomes quantity × new_rate / old_rate of the acquirer (added to a position there
   * with the basis carried over), plus cash_rate × quantity in cash; a non-fractionable acquirer's
   * fraction is paid as cash in lieu, taking its share of the basis.
   */
  async applyStockMerger(
    manager: EntityManager,
    scope: Scope,
    action: CorporateActionRow,
    position: HolderPosition,
    ctx: ReorganizationContext & { acquirer: Acquirer },
  ): Promise<void> {
    if (!(await this.claim(manager, scope, action, position, ctx))) {
      return;
    }
    const { acquirer } = ctx;
    const accountId = position.account_id;
    const result = stockMergerOutcome({
      quantity: position.quantity,
      totalCostBasis: position.total_cost_basis,
      oldRate: action.old_rate as string,
      newRate: action.new_rate as string,
      cashRate: action.cash_rate,
      fractionable: acquirer.fractionable,
      acquirerPreviousClose: acquirer.previousClose,
      currency: action.currency,
    });
    await this.moveIntoAcquirer(manager, scope, action, accountId, acquirer, result, ctx.now);
    await this.payStockMergerCash(manager, scope, action, position, acquirer, result, ctx.now);
    const cash = result.cash.toFixed();
    const outcome: Outcome = {
      ...ZERO_CASH,
      cash,
      netCash: cash,
      quantityChange: result.quantityAfter.minus(position.quantity).toFixed(),
      cashInLieu: result.cashInLieu.toFixed(),
      status: 'applied',
      at: ctx.now,
    };
    await this.finish(manager, scope, action, position, ctx, outcome, {
      quantityAfter: result.quantityAfter.toFixed(),
      costBasisAfter: result.costBasisAfter.toFixed(),
      acquirerSymbol: acquirer.symbol,
      fractionSold: fractionSoldOf(result),
    });
  }

  /** The target's position goes to 0; the acquirer's shares join a position there with their basis. */
  private async moveIntoAcquirer(
    manager: EntityManager,
    scope: Scope,
    action: CorporateActionRow,
    accountId: string,
    acquirer: Acquirer,
    result: StockMergerOutcome,
    at: Date,
  ): Promise<void> {
    const emptied = { quantity: '0', totalCostBasis: '0' };
    await this.positions.adjust(manager, scope, accountId, action.asset_id, emptied, at);
    if (result.quantityAfter.gt(0)) {
      const asset: PositionAsset = { accountId, ...acquirer };
      const shares = {
        quantity: result.quantityAfter.toFixed(),
        totalCostBasis: result.costBasisAfter.toFixed(),
      };
      await this.positions.addUnits(manager, scope, asset, shares, at);
    }
  }

  /** A stock merger's cash part and its fraction's cash in lieu, each its own journal. */
  private async payStockMergerCash(
    manager: EntityManager,
    scope: Scope,
    action: CorporateActionRow,
    position: HolderPosition,
    acquirer: Acquirer,
    result: StockMergerOutcome,
    at: Date,
  ): Promise<void> {
    const accountId = position.account_id;
    const terms = `${action.symbol} into ${acquirer.symbol} ${action.new_rate} for ${action.old_rate}`;
    if (result.cash.gt(0)) {
      await payFromClearing(this.ledger, manager, scope, {
        action,
        accountId,
        what: 'merger_cash',
        amount: result.cash,
        description: `Stock merger ${terms}: ${position.quantity} × ${action.cash_rate} ${action.currency}`,
        at,
      });
    }
    if (result.cashInLieu.gt(0)) {
      await payFromClearing(this.ledger, manager, scope, {
        action,
        accountId,
        what: 'cash_in_lieu',
        amount: result.cashInLieu,
        description:
          `Cash in lieu of ${result.fraction.toFixed()} ${acquirer.symbol} (stock merger ${terms}; ` +
          `basis ${result.fractionBasis.toFixed()})`,
        at,
      });
    }
  }

  private claim(
    manager: EntityManager,
    scope: Scope,
    action: CorporateActionRow,
    position: HolderPosition,
    ctx: ReorganizationContext,
  ): Promise<boolean> {
    return this.entitlements.claim(
      manager,
      scope,
      action.id,
      { accountId: position.account_id, investorId: ctx.investorId, eligible: position.quantity },
      ctx.now,
    );
  }

  private async finish(
    manager: EntityManager,
    scope: Scope,
    action: CorporateActionRow,
    position: HolderPosition,
    ctx: ReorganizationContext,
    outcome: Outcome,
    after: Pick<AppliedChange, 'quantityAfter' | 'costBasisAfter' | 'acquirerSymbol' | 'fractionSold'>,
  ): Promise<void> {
    await this.entitlements.complete(manager, scope, action.id, position.account_id, outcome);
    await this.changes.record(manager, scope, action, {
      accountId: position.account_id,
      investorId: ctx.investorId,
      quantityBefore: position.quantity,
      costBasisBefore: new Decimal(position.total_cost_basis).toFixed(),
      outcome,
      ...after,
    });
  }
}
