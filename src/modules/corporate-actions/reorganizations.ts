import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import type { EntityManager } from 'typeorm';
import { AppliedChange, fractionSoldOf } from 'src/modules/corporate-actions/application-activities';
import { AppliedChanges } from 'src/modules/corporate-actions/applied-changes';
import { ActionJournal, clearingPayment } from 'src/modules/corporate-actions/clearing-payments';
import type { CorporateActionRow } from 'src/modules/corporate-actions/corporate-action.types';
import type { Scope } from 'src/modules/corporate-actions/corporate-actions.repository';
import {
  cashMergerOutcome,
  stockMergerOutcome,
  StockMergerOutcome,
} from 'src/modules/corporate-actions/entitlement-math';
import type { Outcome } from 'src/modules/corporate-actions/entitlements.repository';
import { LedgerService } from 'src/modules/ledger/ledger.service';
import { HolderPosition, PositionAdjustments } from 'src/modules/trading/position-adjustments';

export interface ReorganizationContext {
  /** The investor of each holder's account (null: the firm account). */
  investorIds: Map<string, string | null>;
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
 * Symbol changes and mergers applied to a batch of holders, inside the batch's transaction (as
 * Applications does for dividends and splits), each kind of write one statement for the batch:
 * the entitlements claimed first (the unique key that makes a retried batch apply nothing), then
 * the position changes, the journals (`ca:{action}:{account}:merger_cash|cash_in_lieu`), the
 * entitlements' outcomes, the activities and `corporate_action.applied`.
 */
@Injectable()
export class Reorganizations {
  constructor(
    private readonly positions: PositionAdjustments,
    private readonly ledger: LedgerService,
    private readonly changes: AppliedChanges,
  ) {}

  /** The positions take the new symbol; quantity, cost basis and dates stay. */
  async applySymbolChanges(
    manager: EntityManager,
    scope: Scope,
    action: CorporateActionRow,
    holders: HolderPosition[],
    ctx: ReorganizationContext,
  ): Promise<void> {
    const claimed = await this.changes.claim(manager, scope, action, holders, ctx);
    const accountIds = claimed.map((p) => p.account_id);
    await this.positions.rename(manager, scope, action.asset_id, accountIds, action.new_symbol as string);
    const outcome: Outcome = { ...ZERO_CASH, quantityChange: '0', status: 'applied', at: ctx.now };
    await this.changes.finish(
      manager,
      scope,
      action,
      claimed.map((position) =>
        changeOf(position, ctx, outcome, {
          quantityAfter: position.quantity,
          costBasisAfter: new Decimal(position.total_cost_basis).toFixed(),
        }),
      ),
    );
  }

  /** The positions are closed at cash_rate per share, realizing cash − their cost basis. */
  async applyCashMergers(
    manager: EntityManager,
    scope: Scope,
    action: CorporateActionRow,
    holders: HolderPosition[],
    ctx: ReorganizationContext,
  ): Promise<void> {
    const claimed = await this.changes.claim(manager, scope, action, holders, ctx);
    const applied = claimed.map((position) => ({
      position,
      result: cashMergerOutcome({
        quantity: position.quantity,
        totalCostBasis: position.total_cost_basis,
        cashRate: action.cash_rate as string,
        currency: action.currency,
      }),
    }));
    await this.empty(manager, scope, action, claimed, ctx.now);
    await this.ledger.postMany(
      manager,
      scope,
      applied
        .filter(({ result }) => result.cash.gt(0))
        .map(({ position, result }) =>
          clearingPayment({
            action,
            accountId: position.account_id,
            what: 'merger_cash',
            amount: result.cash,
            description:
              `Cash merger: ${position.quantity} ${action.symbol} × ${action.cash_rate} ${action.currency}; ` +
              `basis ${new Decimal(position.total_cost_basis).toFixed()}, realized ${result.realizedGainLoss.toFixed()}`,
            at: ctx.now,
          }),
        ),
    );
    const changes = applied.map(({ position, result }) => {
      const cash = result.cash.toFixed();
      const quantityChange = new Decimal(position.quantity).neg().toFixed();
      const outcome: Outcome = {
        ...ZERO_CASH,
        cash,
        netCash: cash,
        quantityChange,
        status: 'applied',
        at: ctx.now,
      };
      return changeOf(position, ctx, outcome, { quantityAfter: '0', costBasisAfter: '0' });
    });
    await this.changes.finish(manager, scope, action, changes);
  }

  /**
   * Each position becomes quantity × new_rate / old_rate of the acquirer (added to a position there
   * with the basis carried over), plus cash_rate × quantity in cash; a non-fractionable acquirer's
   * fraction is paid as cash in lieu, taking its share of the basis.
   */
  async applyStockMergers(
    manager: EntityManager,
    scope: Scope,
    action: CorporateActionRow,
    holders: HolderPosition[],
    ctx: ReorganizationContext & { acquirer: Acquirer },
  ): Promise<void> {
    const { acquirer } = ctx;
    const claimed = await this.changes.claim(manager, scope, action, holders, ctx);
    const applied = claimed.map((position) => ({
      position,
      result: stockMergerOutcome({
        quantity: position.quantity,
        totalCostBasis: position.total_cost_basis,
        oldRate: action.old_rate as string,
        newRate: action.new_rate as string,
        cashRate: action.cash_rate,
        fractionable: acquirer.fractionable,
        acquirerPreviousClose: acquirer.previousClose,
        currency: action.currency,
      }),
    }));
    await this.empty(manager, scope, action, claimed, ctx.now);
    const units = applied
      .filter(({ result }) => result.quantityAfter.gt(0))
      .map(({ position, result }) => ({
        accountId: position.account_id,
        quantity: result.quantityAfter.toFixed(),
        totalCostBasis: result.costBasisAfter.toFixed(),
      }));
    await this.positions.addUnits(manager, scope, acquirer, units, ctx.now);
    await this.ledger.postMany(
      manager,
      scope,
      applied.flatMap(({ position, result }) => stockMergerCash(action, position, acquirer, result, ctx.now)),
    );
    const changes = applied.map(({ position, result }) => {
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
      return changeOf(position, ctx, outcome, {
        quantityAfter: result.quantityAfter.toFixed(),
        costBasisAfter: result.costBasisAfter.toFixed(),
        acquirerSymbol: acquirer.symbol,
        fractionSold: fractionSoldOf(result),
      });
    });
    await this.changes.finish(manager, scope, action, changes);
  }

  /** The target's positions go to 0 (a merger). */
  private empty(
    manager: EntityManager,
    scope: Scope,
    action: CorporateActionRow,
    claimed: HolderPosition[],
    at: Date,
  ): Promise<void> {
    const emptied = claimed.map((p) => ({ accountId: p.account_id, quantity: '0', totalCostBasis: '0' }));
    return this.positions.adjust(manager, scope, action.asset_id, emptied, at);
  }
}

/** What one application changed in a holder's account. */
function changeOf(
  position: HolderPosition,
  ctx: ReorganizationContext,
  outcome: Outcome,
  after: Pick<AppliedChange, 'quantityAfter' | 'costBasisAfter' | 'acquirerSymbol' | 'fractionSold'>,
): AppliedChange {
  return {
    accountId: position.account_id,
    investorId: ctx.investorIds.get(position.account_id) ?? null,
    quantityBefore: position.quantity,
    costBasisBefore: new Decimal(position.total_cost_basis).toFixed(),
    outcome,
    ...after,
  };
}

/** A stock merger's cash part and its fraction's cash in lieu, each its own journal. */
function stockMergerCash(
  action: CorporateActionRow,
  position: HolderPosition,
  acquirer: Acquirer,
  result: StockMergerOutcome,
  at: Date,
): ActionJournal[] {
  const accountId = position.account_id;
  const terms = `${action.symbol} into ${acquirer.symbol} ${action.new_rate} for ${action.old_rate}`;
  const journals: ActionJournal[] = [];
  if (result.cash.gt(0)) {
    journals.push(
      clearingPayment({
        action,
        accountId,
        what: 'merger_cash',
        amount: result.cash,
        description: `Stock merger ${terms}: ${position.quantity} × ${action.cash_rate} ${action.currency}`,
        at,
      }),
    );
  }
  if (result.cashInLieu.gt(0)) {
    journals.push(
      clearingPayment({
        action,
        accountId,
        what: 'cash_in_lieu',
        amount: result.cashInLieu,
        description:
          `Cash in lieu of ${result.fraction.toFixed()} ${acquirer.symbol} (stock merger ${terms}; ` +
          `basis ${result.fractionBasis.toFixed()})`,
        at,
      }),
    );
  }
  return journals;
}
