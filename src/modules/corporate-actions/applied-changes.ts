import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { EventsService } from 'src/core/events/events.service';
import { ActivitiesService } from 'src/modules/activities/activities.service';
import { AppliedChange, applicationActivities } from 'src/modules/corporate-actions/application-activities';
import type { CorporateActionRow } from 'src/modules/corporate-actions/corporate-action.types';
import type { Scope } from 'src/modules/corporate-actions/corporate-actions.repository';

/**
 * What every application writes last, in its transaction: the account's activities and
 * `corporate_action.applied` (docs/decisions.md, Corporate actions: sent for applied entitlements only).
 */
@Injectable()
export class AppliedChanges {
  constructor(
    private readonly activities: ActivitiesService,
    private readonly events: EventsService,
  ) {}

  async record(
    manager: EntityManager,
    scope: Scope,
    action: CorporateActionRow,
    change: AppliedChange,
  ): Promise<void> {
    await this.activities.record(manager, scope, applicationActivities(action, change));
    await this.events.emit(manager, {
      ...scope,
      event: 'corporate_action.applied',
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
    });
  }
}
