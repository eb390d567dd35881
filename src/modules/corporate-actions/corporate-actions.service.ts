import { Injectable } from '@nestjs/common';
import type { Principal } from 'src/core/auth/principal';
import { ServiceError } from 'src/core/errors/service-error';
import { ListEnvelope, toList } from 'src/core/http/envelope';
import type { IdempotentRequest } from 'src/core/idempotency/idempotent-request';
import { IdempotentTransaction } from 'src/core/idempotency/idempotent-transaction';
import { Announcements } from 'src/modules/corporate-actions/announcements.service';
import type { CorporateActionRow } from 'src/modules/corporate-actions/corporate-action.types';
import { actionView, entitlementView } from 'src/modules/corporate-actions/corporate-action-views';
import { CorporateActionsRepository } from 'src/modules/corporate-actions/corporate-actions.repository';
import type {
  CorporateActionDto,
  CorporateActionEntitlementDto,
  CreateTestCorporateActionDto,
} from 'src/modules/corporate-actions/dto/corporate-action.dto';
import type {
  ListCorporateActionsQuery,
  ListEntitlementsQuery,
} from 'src/modules/corporate-actions/dto/corporate-action.queries';
import { EntitlementsRepository } from 'src/modules/corporate-actions/entitlements.repository';

/** The routes: announcements and entitlements as the caller's tenant and mode see them, test helpers. */
@Injectable()
export class CorporateActionsService {
  constructor(
    private readonly actions: CorporateActionsRepository,
    private readonly entitlements: EntitlementsRepository,
    private readonly announcements: Announcements,
    private readonly transactions: IdempotentTransaction,
  ) {}

  async list(
    principal: Principal,
    query: ListCorporateActionsQuery,
    url: string,
  ): Promise<ListEnvelope<CorporateActionDto>> {
    if (query.starting_after && query.ending_before) {
      throw ServiceError.invalid('ending_before', 'Send starting_after or ending_before, not both.');
    }
    const cursorId = query.starting_after ?? query.ending_before;
    let cursor: { row: CorporateActionRow; direction: 'after' | 'before' } | null = null;
    if (cursorId) {
      const row = await this.actions.find(principal, cursorId);
      if (!row) {
        throw ServiceError.invalid(
          query.starting_after ? 'starting_after' : 'ending_before',
          `No such corporate action: '${cursorId}'.`,
        );
      }
      cursor = { row, direction: query.starting_after ? 'after' : 'before' };
    }
    if (query.ex_date_gte && query.ex_date_lte && query.ex_date_gte > query.ex_date_lte) {
      throw ServiceError.invalid('ex_date_lte', 'ex_date_lte must be on or after ex_date_gte.');
    }
    const limit = query.limit ?? 50;
    const rows = await this.actions.page(
      principal,
      {
        symbol: query.symbol,
        type: query.type,
        status: query.status,
        exDateGte: query.ex_date_gte,
        exDateLte: query.ex_date_lte,
      },
      limit,
      cursor,
    );
    const hasMore = rows.length > limit;
    const page = cursor?.direction === 'before' ? rows.slice(hasMore ? 1 : 0) : rows.slice(0, limit);
    return toList(
      url,
      page.map((r) => actionView(r, principal.livemode)),
      hasMore,
    );
  }

  async get(principal: Principal, id: string): Promise<CorporateActionDto> {
    return actionView(await this.require(principal, id), principal.livemode);
  }

  async listEntitlements(
    principal: Principal,
    id: string,
    query: ListEntitlementsQuery,
    url: string,
  ): Promise<ListEnvelope<CorporateActionEntitlementDto>> {
    const action = await this.require(principal, id);
    const limit = query.limit ?? 50;
    const rows = await this.entitlements.page(principal, action.id, limit, query.starting_after ?? null);
    return toList(
      url,
      rows.slice(0, limit).map((row) => entitlementView(row, principal.livemode)),
      rows.length > limit,
    );
  }

  announce(
    principal: Principal,
    body: CreateTestCorporateActionDto,
    idem: IdempotentRequest | undefined,
  ): Promise<CorporateActionDto> {
    return this.transactions.run(idem, async (manager) =>
      actionView(
        await this.announcements.announceForTenant(manager, principal, { ...body }),
        principal.livemode,
      ),
    );
  }

  cancel(principal: Principal, id: string, idem: IdempotentRequest | undefined): Promise<CorporateActionDto> {
    return this.transactions.run(idem, async (manager) =>
      actionView(await this.announcements.cancel(manager, principal, id), principal.livemode),
    );
  }

  private async require(principal: Principal, id: string): Promise<CorporateActionRow> {
    const row = await this.actions.find(principal, id);
    if (!row) {
      throw ServiceError.notFound('corporate_action', id);
    }
    return row;
  }
}
