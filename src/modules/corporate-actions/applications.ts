import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import type { EntityManager } from 'typeorm';
import type {
  CorporateActionRow,
  EntitlementRow,
} from 'src/modules/corporate-actions/corporate-action.types';
import {
  DividendAmounts,
  dividendAmounts,
  splitOutcome,
  SplitOutcome,
} from 'src/modules/corporate-actions/entitlement-math';
import type { Scope } from 'src/modules/corporate-actions/corporate-actions.repository';
import { EntitlementsRepository, Outcome } from 'src/modules/corporate-actions/entitlements.repository';
import { LedgerService } from 'src/modules/ledger/ledger.service';
import { AppliedChanges } from 'src/modules/corporate-actions/applied-changes';
import { AppliedChange, fractionSoldOf } from 'src/modules/corporate-actions/application-activities';
import { ActionJournal, clearingPayment } from 'src/modules/corporate-actions/clearing-payments';
import { HolderPosition, PositionAdjustments } from 'src/modules/trading/position-adjustments';

export interface DividendContext {
  withholdingBps: number;
  /** Alpha-2 by account; anything but US is withheld. */
  taxResidence: Map<string, string | null>;
  /** The positions' total cost basis by account (unchanged by a dividend; shown in the event). */
  costBasis: Map<string, string>;
  now: Date;
}

export interface RatioContext {
  investorIds: Map<string, string | null>;
  fractionable: boolean;
  previousClose: Decimal;
  now: Date;
}

/**
 * The application of an action to the accounts of one batch, inside the batch's transaction: ledger
 * journals (keyed `ca:{action}:{account}:…`), the position changes, the entitlements' outcomes and
 * `corporate_action.applied` with each application's activities. Each kind of write is one
 * statement for the whole batch, so an action over many holders costs a few round trips per batch,
 * not per account. The entitlements' conditional transitions (`pending` → `applied` or `skipped`)
 * and the journal keys make a second run apply nothing.
 */
@Injectable()
export class Applications {
  constructor(
    private readonly entitlements: EntitlementsRepository,
    private readonly positions: PositionAdjustments,
    private readonly ledger: LedgerService,
    private readonly changes: AppliedChanges,
  ) {}

  /** Cash dividends: gross to cash, withholding out again as its own journal (where it applies). */
  async payDividends(
    manager: EntityManager,
    scope: Scope,
    action: CorporateActionRow,
    pending: EntitlementRow[],
    ctx: DividendContext,
  ): Promise<void> {
    const planned = pending.map((entitlement) => {
      const tax = (ctx.taxResidence.get(entitlement.account_id) ?? '').toUpperCase();
      const amounts = dividendAmounts(
        entitlement.eligible_quantity,
        action.cash_rate as string,
        ctx.withholdingBps,
        tax !== 'US',
        action.currency,
      );
      const outcome: Outcome = {
        cash: amounts.gross.toFixed(),
        withholding: amounts.withholding.toFixed(),
        netCash: amounts.net.toFixed(),
        quantityChange: '0',
        cashInLieu: '0',
        status: amounts.gross.gt(0) ? 'applied' : 'skipped',
        at: ctx.now,
      };
      return { entitlement, amounts, outcome };
    });
    const completed = await this.entitlements.complete(
      manager,
      scope,
      action.id,
      new Map(planned.map((p) => [p.entitlement.account_id, p.outcome])),
    );
    const paid = planned.filter(
      (p) => completed.has(p.entitlement.account_id) && p.outcome.status === 'applied',
    );
    await this.ledger.postMany(
      manager,
      scope,
      paid.flatMap((p) => this.dividendJournals(action, p.entitlement, p.amounts, ctx)),
    );
    await this.changes.record(
      manager,
      scope,
      action,
      paid.map(({ entitlement, outcome }) => {
        const basis = ctx.costBasis.get(entitlement.account_id) ?? '0';
        return {
          accountId: entitlement.account_id,
          investorId: entitlement.investor_id,
          quantityBefore: entitlement.eligible_quantity,
          quantityAfter: entitlement.eligible_quantity,
          costBasisBefore: basis,
          costBasisAfter: basis,
          outcome,
        };
      }),
    );
  }

  /** The gross dividend from the clearing account and, where withheld, the withholding from cash. */
  private dividendJournals(
    action: CorporateActionRow,
    entitlement: EntitlementRow,
    amounts: DividendAmounts,
    ctx: DividendContext,
  ): ActionJournal[] {
    const { currency } = action;
    const accountId = entitlement.account_id;
    const about = `${entitlement.eligible_quantity} ${action.symbol} × ${action.cash_rate} ${currency}`;
    const dividend = clearingPayment({
      action,
      accountId,
      what: 'dividend',
      amount: amounts.gross,
      description: `Cash dividend ${about}`,
      at: ctx.now,
    });
    if (!amounts.withholding.gt(0)) {
      return [dividend];
    }
    const withholding: ActionJournal = {
      journalKey: `ca:${action.id}:${accountId}:withholding`,
      kind: 'corporate_action.withholding',
      effectiveAt: ctx.now,
      reference: action.id,
      description: `Dividend withholding ${ctx.withholdingBps} bps on ${about} (${action.id})`,
      entries: [
        {
          account: { kind: 'investor_cash', ownerId: accountId, currency },
          direction: 'debit',
          amount: amounts.withholding,
        },
        {
          account: { kind: 'withholding_tax_payable', currency },
          direction: 'credit',
          amount: amounts.withholding,
        },
      ],
    };
    return [dividend, withholding];
  }

  /**
   * Splits, reverse splits, stock dividends: each position becomes quantity × new_rate / old_rate
   * with its total cost basis; a non-fractionable asset's fraction is paid as cash in lieu (a sale
   * of that fraction at its share of the basis).
   */
  async applyRatios(
    manager: EntityManager,
    scope: Scope,
    action: CorporateActionRow,
    holders: HolderPosition[],
    ctx: RatioContext,
  ): Promise<void> {
    const claimed = await this.changes.claim(manager, scope, action, holders, ctx);
    const applied = claimed.map((position) => ({
      position,
      result: this.ratioOutcome(action, position, ctx),
    }));
    await this.positions.adjust(
      manager,
      scope,
      action.asset_id,
      applied.map(({ position, result }) => ({
        accountId: position.account_id,
        quantity: result.quantityAfter.toFixed(),
        totalCostBasis: result.costBasisAfter.toFixed(),
      })),
      ctx.now,
    );
    await this.ledger.postMany(
      manager,
      scope,
      applied
        .filter(({ result }) => result.cashInLieu.gt(0))
        .map(({ position, result }) => this.cashInLieu(action, position.account_id, result, ctx.now)),
    );
    const changes = applied.map(({ position, result }) => this.ratioChange(position, result, ctx));
    await this.changes.finish(manager, scope, action, changes);
  }

  private ratioOutcome(
    action: CorporateActionRow,
    position: HolderPosition,
    ctx: RatioContext,
  ): SplitOutcome {
    return splitOutcome({
      quantity: position.quantity,
      totalCostBasis: position.total_cost_basis,
      oldRate: action.old_rate as string,
      newRate: action.new_rate as string,
      fractionable: ctx.fractionable,
      previousClose: ctx.previousClose,
      currency: action.currency,
    });
  }

  private cashInLieu(action: CorporateActionRow, accountId: string, result: SplitOutcome, at: Date) {
    return clearingPayment({
      action,
      accountId,
      what: 'cash_in_lieu',
      amount: result.cashInLieu,
      description:
        `Cash in lieu of ${result.fraction.toFixed()} ${action.symbol} (${action.type} ${action.new_rate} for ` +
        `${action.old_rate}; basis ${result.fractionBasis.toFixed()})`,
      at,
    });
  }

  private ratioChange(position: HolderPosition, result: SplitOutcome, ctx: RatioContext): AppliedChange {
    return {
      accountId: position.account_id,
      investorId: ctx.investorIds.get(position.account_id) ?? null,
      quantityBefore: position.quantity,
      quantityAfter: result.quantityAfter.toFixed(),
      costBasisBefore: new Decimal(position.total_cost_basis).toFixed(),
      costBasisAfter: result.costBasisAfter.toFixed(),
      outcome: {
        cash: '0',
        withholding: '0',
        netCash: '0',
        quantityChange: result.quantityAfter.minus(position.quantity).toFixed(),
        cashInLieu: result.cashInLieu.toFixed(),
        status: 'applied',
        at: ctx.now,
      },
      fractionSold: fractionSoldOf(result),
    };
  }
}
