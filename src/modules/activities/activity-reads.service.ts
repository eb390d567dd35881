import { Injectable } from '@nestjs/common';
import type { Principal } from 'src/core/auth/principal';
import { ServiceError } from 'src/core/errors/service-error';
import { AccountsService } from 'src/modules/accounts/accounts.service';
import { ActivitiesService } from 'src/modules/activities/activities.service';
import { ACTIVITY_TYPES, ActivityFilter, ActivityType } from 'src/modules/activities/activity-types';
import { activityView } from 'src/modules/activities/activity-views';
import type { ActivitiesQuery, ActivityDto } from 'src/modules/activities/dto/activity.dto';

function parseTypes(value: string | undefined): ActivityType[] | undefined {
  if (value === undefined) {
    return undefined;
  }
  const types = value.split(',').map((t) => t.trim());
  for (const type of types) {
    if (!(ACTIVITY_TYPES as readonly string[]).includes(type)) {
      throw ServiceError.invalid(
        'activity_types',
        `Unknown activity type '${type.slice(0, 20)}'; use a comma-separated list of ${ACTIVITY_TYPES.join(', ')}.`,
      );
    }
  }
  return types as ActivityType[];
}

function parseInstant(value: string | undefined, param: string): Date | undefined {
  if (value === undefined) {
    return undefined;
  }
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) {
    throw ServiceError.invalid(param, `${param} must be a valid ISO 8601 date-time.`);
  }
  return at;
}

function parseDate(value: string | undefined): string | undefined {
  if (value === undefined) {
    return undefined;
  }
  const at = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(at.getTime()) || at.toISOString().slice(0, 10) !== value) {
    throw ServiceError.invalid('date', 'date must be a calendar date written YYYY-MM-DD.');
  }
  return value;
}

/** GET /trading/accounts/{account_id}/activities: checks the query and reads a page. */
@Injectable()
export class ActivityReads {
  constructor(
    private readonly accounts: AccountsService,
    private readonly activities: ActivitiesService,
  ) {}

  async list(principal: Principal, accountId: string, query: ActivitiesQuery): Promise<ActivityDto[]> {
    const account = await this.accounts.findAccountForPrincipal(principal, accountId);
    const scope = { tenantId: principal.tenantId, livemode: principal.livemode };
    const filter: ActivityFilter = {
      types: parseTypes(query.activity_types),
      date: parseDate(query.date),
      after: parseInstant(query.after, 'after'),
      until: parseInstant(query.until, 'until'),
      direction: query.direction ?? 'desc',
      pageSize: query.page_size ?? 50,
    };
    if (query.page_token !== undefined) {
      const seq = await this.activities.tokenSeq(scope, account.id, query.page_token);
      if (seq === null) {
        throw ServiceError.invalid('page_token', `No activity '${query.page_token}' in this account.`);
      }
      filter.afterSeq = seq;
    }
    return (await this.activities.page(scope, account.id, filter)).map(activityView);
  }
}
