import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { EventsService } from 'src/core/events/events.service';
import { ActivitiesService } from 'src/modules/activities/activities.service';
import { AppliedChange, applicationActivities } from 'src/modules/corporate-actions/application-activities';
import type { CorporateActionRow } from 'src/modules/corporate-actions/corporate-action.types';
import type { Scope } from 'src/modules/corporate-actions/corporate-actions.repository';
import { EntitlementsRepository } from 'src/modules/corporate-actions/entitlements.repository';
import type { HolderPosition } from 'src/modules/trading/position-adjustments';

/**
 * What every application to a batch of holders shares, in its transaction: the entitlements claimed
 * first (the unique key that makes a retried batch apply nothing), and last the entitlements'
 * outcomes, the accounts' activities and `corporate_action.applied` (docs/decisions.md, Corporate
 * actions: sent for applied entitlements only).
 */
@Injectable()
export class AppliedChanges {
  constructor(
    private readonly entitlements: EntitlementsRepository,
    private readonly activities: ActivitiesService,
    private readonly events: EventsService,
  ) {}

  /** The holders whose entitlement this run created (a retried batch finds the others handled). */
  async claim(
    manager: EntityManager,
    scope: Scope,
    action: CorporateActionRow,
    holders: HolderPosition[],
    ctx: { investorIds: Map<string, string | null>; now: Date },
  ): Promise<HolderPosition[]> {
    const rows = holders.map((p) => ({
      accountId: p.account_id,
      investorId: ctx.investorIds.get(p.account_id) ?? null,
      eligible: p.quantity,
    }));
    const claimed = await this.entitlements.claim(manager, scope, action.id, rows, ctx.now);
    return holders.filter((p) => claimed.has(p.account_id));
  }

  /** The claimed entitlements' outcomes, then record(). */
  async finish(
    manager: EntityManager,
    scope: Scope,
    action: CorporateActionRow,
    changes: AppliedChange[],
  ): Promise<void> {
    await this.entitlements.complete(
      manager,
      scope,
      action.id,
      new Map(changes.map((c) => [c.accountId, c.outcome])),
    );
    await this.record(manager, scope, action, changes);
  }

  /** The activities and events of the applications of one batch, a statement each. */
  async record(
    manager: EntityManager,
    scope: Scope,
    action: CorporateActionRow,
    changes: AppliedChange[],
  ): Promise<void> {
    if (changes.length === 0) {
      return;
    }
    await this.activities.record(
      manager,
      scope,
      changes.flatMap((change) => applicationActivities(action, change)),
    );
    await this.events.emitMany(
      manager,
      changes.map((change) => ({
        ...scope,
        event: 'corporate_action.applied' as const,
        data: {
          corporate_action_id: action.id,
          type: action.type,
          account_id: change.accountId,
          investor_id: change.investorId,
          symbol: action.symbol,
          quantity_before: change.quantityBefore,
          quantity_after: change.quantityAfter,
          cost_basis_before: change.costBasisBefore,
          cost_basis_after: change.costBasisAfter,
          cash: change.outcome.cash,
          withholding: change.outcome.withholding,
          net_cash: change.outcome.netCash,
          cash_in_lieu: change.outcome.cashInLieu,
          currency: action.currency,
        },
      })),
    );
  }
}
