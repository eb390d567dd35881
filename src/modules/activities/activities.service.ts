import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { Money } from 'src/core/money/money';
import { wallClock } from 'src/modules/markets/calendar';
import { ActivitiesRepository, NewActivityRow } from 'src/modules/activities/activities.repository';
import type {
  ActivityFilter,
  ActivityInput,
  ActivityRow,
  ActivityScope,
} from 'src/modules/activities/activity-types';

/** Activities are dated by the business day in New York (docs/decisions.md, Activities). */
export const ACTIVITY_TIME_ZONE = 'America/New_York';

export function businessDate(at: Date): string {
  return wallClock(at.getTime(), ACTIVITY_TIME_ZONE).date;
}

const text = (value: unknown): string | null =>
  value === undefined || value === null ? null : new Money(value as string).toFixed();

function toRow(input: ActivityInput): NewActivityRow {
  return {
    source_key: input.key,
    account_id: input.accountId,
    activity_type: input.type,
    status: input.status ?? 'executed',
    date: businessDate(input.at),
    transaction_time: input.at.toISOString(),
    currency: input.currency,
    net_amount: new Money(input.netAmount).toFixed(),
    symbol: input.symbol ?? null,
    qty: text(input.qty),
    price: text(input.price),
    per_share_amount: text(input.perShareAmount),
    side: input.side ?? null,
    order_id: input.orderId ?? null,
    transaction_id: input.transactionId ?? null,
    corporate_action_id: input.corporateActionId ?? null,
    journal_id: input.journalId ?? null,
    conversion_id: input.conversionId ?? null,
    description: input.description ?? null,
  };
}

/**
 * Work done in the transaction that records activities (statements schedule the documents they
 * will appear in). Registered by other modules at start.
 */
export type ActivityHook = (
  manager: EntityManager,
  scope: ActivityScope,
  activities: ActivityInput[],
) => Promise<void>;

/**
 * The one way an activity is written: in the caller's transaction, beside the ledger journal or
 * position change it reports, so the feed and the ledger commit together or not at all. Keys make
 * a retried job record nothing twice. Reads sequence committed activities first (ids in the order
 * they became visible).
 */
@Injectable()
export class ActivitiesService {
  private readonly hooks: ActivityHook[] = [];

  constructor(
    private readonly dataSource: DataSource,
    private readonly repository: ActivitiesRepository,
  ) {}

  /** Adds work to every transaction that records activities. */
  onRecorded(hook: ActivityHook): void {
    this.hooks.push(hook);
  }

  /** Records one or more activities in the caller's transaction; how many were new. */
  async record(
    manager: EntityManager,
    scope: ActivityScope,
    inputs: ActivityInput | ActivityInput[],
  ): Promise<number> {
    const list = Array.isArray(inputs) ? inputs : [inputs];
    const inserted = await this.repository.insert(manager, scope, list.map(toRow));
    if (inserted > 0) {
      for (const hook of this.hooks) {
        await hook(manager, scope, list);
      }
    }
    return inserted;
  }

  /** A page of an account's activities (the caller has checked access to the account). */
  async page(scope: ActivityScope, accountId: string, filter: ActivityFilter): Promise<ActivityRow[]> {
    await this.repository.sequence(this.dataSource.manager, accountId);
    return this.repository.page(this.dataSource.manager, scope, accountId, filter);
  }

  /** The seq a page token stands for, or null when it is no activity of the account. */
  async tokenSeq(scope: ActivityScope, accountId: string, token: string): Promise<string | null> {
    return this.repository.seqOf(this.dataSource.manager, scope, accountId, token);
  }

  /** Every activity of an account dated within [first, last], in id order (statements). */
  async between(
    scope: ActivityScope,
    accountId: string,
    first: string,
    last: string,
  ): Promise<ActivityRow[]> {
    await this.repository.sequence(this.dataSource.manager, accountId);
    return this.repository.between(this.dataSource.manager, scope, accountId, first, last);
  }
}
