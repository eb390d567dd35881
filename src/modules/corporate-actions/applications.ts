import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import type { EntityManager } from 'typeorm';
import type {
  CorporateActionRow,
  EntitlementRow,
} from 'src/modules/corporate-actions/corporate-action.types';
import { dividendAmounts, splitOutcome } from 'src/modules/corporate-actions/entitlement-math';
import type { Scope } from 'src/modules/corporate-actions/corporate-actions.repository';
import { EntitlementsRepository, Outcome } from 'src/modules/corporate-actions/entitlements.repository';
import { LedgerService } from 'src/modules/ledger/ledger.service';
import { AppliedChanges } from 'src/modules/corporate-actions/applied-changes';
import { fractionSoldOf } from 'src/modules/corporate-actions/application-activities';
import { payFromClearing } from 'src/modules/corporate-actions/clearing-payments';
import { HolderPosition, PositionAdjustments } from 'src/modules/trading/position-adjustments';

export interface DividendContext {
  withholdingBps: number;
  /** Alpha-2; anything but US is withheld. */
  taxResidence: string | null;
  /** The position's total cost basis (unchanged by a dividend; shown in the event). */
  costBasis: string;
  now: Date;
}

export interface RatioContext {
  investorId: string | null;
  fractionable: boolean;
  previousClose: Decimal;
  now: Date;
}

/**
 * The application of an action to one account, inside the batch's transaction: ledger journals
 * (keyed `ca:{action}:{account}:…`), the position change, the entitlement's outcome and
 * `corporate_action.applied` with the application's activities. The entitlement's conditional transition (`pending` → `applied` or
 * `skipped`) and the journal keys make a second run apply nothing.
 */
@Injectable()
export class Applications {
  constructor(
    private readonly entitlements: EntitlementsRepository,
    private readonly positions: PositionAdjustments,
    private readonly ledger: LedgerService,
    private readonly changes: AppliedChanges,
  ) {}

  /** Cash dividend: gross to cash, withholding out again as its own journal (where it applies). */
  async payDividend(
    manager: EntityManager,
    scope: Scope,
    action: CorporateActionRow,
    entitlement: EntitlementRow,
    ctx: DividendContext,
  ): Promise<void> {
    const currency = action.currency;
    const withheld = (ctx.taxResidence ?? '').toUpperCase() !== 'US';
    const amounts = dividendAmounts(
      entitlement.eligible_quantity,
      action.cash_rate as string,
      ctx.withholdingBps,
      withheld,
      currency,
    );
    const accountId = entitlement.account_id;
    const cash = { kind: 'investor_cash' as const, ownerId: accountId, currency };
    const outcome: Outcome = {
      cash: amounts.gross.toFixed(),
      withholding: amounts.withholding.toFixed(),
      netCash: amounts.net.toFixed(),
      quantityChange: '0',
      cashInLieu: '0',
      status: amounts.gross.gt(0) ? 'applied' : 'skipped',
      at: ctx.now,
    };
    if (!(await this.entitlements.complete(manager, scope, action.id, accountId, outcome))) {
      return;
    }
    if (outcome.status === 'skipped') {
      return;
    }
    const about = `${entitlement.eligible_quantity} ${action.symbol} × ${action.cash_rate} ${currency}`;
    await payFromClearing(this.ledger, manager, scope, {
      action,
      accountId,
      what: 'dividend',
      amount: amounts.gross,
      description: `Cash dividend ${about}`,
      at: ctx.now,
    });
    if (amounts.withholding.gt(0)) {
      await this.ledger.post(manager, {
        ...scope,
        journalKey: `ca:${action.id}:${accountId}:withholding`,
        kind: 'corporate_action.withholding',
        effectiveAt: ctx.now,
        reference: action.id,
        description: `Dividend withholding ${ctx.withholdingBps} bps on ${about} (${action.id})`,
        entries: [
          { account: cash, direction: 'debit', amount: amounts.withholding },
          {
            account: { kind: 'withholding_tax_payable', currency },
            direction: 'credit',
            amount: amounts.withholding,
          },
        ],
      });
    }
    await this.changes.record(manager, scope, action, {
      accountId,
      investorId: entitlement.investor_id,
      quantityBefore: entitlement.eligible_quantity,
      quantityAfter: entitlement.eligible_quantity,
      costBasisBefore: ctx.costBasis,
      costBasisAfter: ctx.costBasis,
      outcome,
    });
  }

  /**
   * Split, reverse split, stock dividend: the position becomes quantity × new_rate / old_rate with
   * its total cost basis; a non-fractionable asset's fraction is paid as cash in lieu (a sale of
   * that fraction at its share of the basis).
   */
  async applyRatio(
    manager: EntityManager,
    scope: Scope,
    action: CorporateActionRow,
    position: HolderPosition,
    ctx: RatioContext,
  ): Promise<void> {
    const accountId = position.account_id;
    const claimed = await this.entitlements.claim(
      manager,
      scope,
      action.id,
      { accountId, investorId: ctx.investorId, eligible: position.quantity },
      ctx.now,
    );
    if (!claimed) {
      return;
    }
    const currency = action.currency;
    const result = splitOutcome({
      quantity: position.quantity,
      totalCostBasis: position.total_cost_basis,
      oldRate: action.old_rate as string,
      newRate: action.new_rate as string,
      fractionable: ctx.fractionable,
      previousClose: ctx.previousClose,
      currency,
    });
    await this.positions.adjust(
      manager,
      scope,
      accountId,
      action.asset_id,
      { quantity: result.quantityAfter.toFixed(), totalCostBasis: result.costBasisAfter.toFixed() },
      ctx.now,
    );
    if (result.cashInLieu.gt(0)) {
      await payFromClearing(this.ledger, manager, scope, {
        action,
        accountId,
        what: 'cash_in_lieu',
        amount: result.cashInLieu,
        description:
          `Cash in lieu of ${result.fraction.toFixed()} ${action.symbol} (${action.type} ${action.new_rate} for ` +
          `${action.old_rate}; basis ${result.fractionBasis.toFixed()})`,
        at: ctx.now,
      });
    }
    const outcome: Outcome = {
      cash: '0',
      withholding: '0',
      netCash: '0',
      quantityChange: result.quantityAfter.minus(position.quantity).toFixed(),
      cashInLieu: result.cashInLieu.toFixed(),
      status: 'applied',
      at: ctx.now,
    };
    await this.entitlements.complete(manager, scope, action.id, accountId, outcome);
    await this.changes.record(manager, scope, action, {
      accountId,
      investorId: ctx.investorId,
      quantityBefore: position.quantity,
      quantityAfter: result.quantityAfter.toFixed(),
      costBasisBefore: new Decimal(position.total_cost_basis).toFixed(),
      costBasisAfter: result.costBasisAfter.toFixed(),
      outcome,
      fractionSold: fractionSoldOf(result),
    });
  }
}
