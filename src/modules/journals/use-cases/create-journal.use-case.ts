import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import type { EntityManager } from 'typeorm';
import type { Principal } from 'src/core/auth/principal';
import { ClockService } from 'src/core/clock/clock.service';
import { EventsService } from 'src/core/events/events.service';
import { ServiceError } from 'src/core/errors/service-error';
import type { IdempotentRequest } from 'src/core/idempotency/idempotent-request';
import { IdempotentTransaction } from 'src/core/idempotency/idempotent-transaction';
import { newId } from 'src/core/ids/ids';
import { Money } from 'src/core/money/money';
import { assertAccountActive, AccountsService } from 'src/modules/accounts/accounts.service';
import type { InvestmentAccountEntity } from 'src/modules/accounts/entities/investment-account.entity';
import type { CreateJournalDto, JournalDto } from 'src/modules/journals/dto/journal.dto';
import { JournalCash } from 'src/modules/journals/journal-cash.service';
import { JournalSettingsService } from 'src/modules/journals/journal-settings.service';
import { businessDate, journalView } from 'src/modules/journals/journal-views';
import { JournalRow, JournalsRepository } from 'src/modules/journals/journals.repository';
import { TradingService } from 'src/modules/trading/trading.service';
import { withoutNulls } from 'src/core/http/without-nulls';
import { ActivitiesService } from 'src/modules/activities/activities.service';
import { journalActivities } from 'src/modules/journals/journal-activities';

/**
 * POST /journals, one transaction: both accounts (404 for one outside the tenant's mode), the
 * shape (400), both ACTIVE (422-001), then a JNLC's limits and ledger journal or a JNLS's move of
 * units and cost basis (422-003), the journal row, `journal.executed` and the idempotent response.
 *
 * Its two activities (JNLC or JNLS) are recorded in the same transaction.
 */
@Injectable()
export class CreateJournal {
  constructor(
    private readonly transactions: IdempotentTransaction,
    private readonly accounts: AccountsService,
    private readonly settings: JournalSettingsService,
    private readonly cash: JournalCash,
    private readonly trading: TradingService,
    private readonly repository: JournalsRepository,
    private readonly events: EventsService,
    private readonly clock: ClockService,
    private readonly activities: ActivitiesService,
  ) {}

  execute(
    principal: Principal,
    sent: CreateJournalDto,
    idem: IdempotentRequest | undefined,
  ): Promise<JournalDto> {
    const dto = withoutNulls(sent);
    checkShape(dto);
    return this.transactions.run(idem, async (manager) => {
      const from = await this.accounts.findAccountForPrincipal(principal, dto.from_account_id, manager, {
        lock: 'share',
      });
      const to = await this.accounts.findAccountForPrincipal(principal, dto.to_account_id, manager, {
        lock: 'share',
      });
      assertAccountActive(from, 'from_account_id');
      assertAccountActive(to, 'to_account_id');
      const now = await this.clock.now(principal, manager);
      const row = journalRow(principal, dto, from, to, now);
      let unitsCurrency: string | undefined;
      if (dto.entry_type === 'JNLC') {
        row.ledger_journal_id = await this.postCash(manager, principal, row, from, to);
      } else {
        const moved = await this.trading.journalUnits(manager, principal, {
          fromAccountId: from.id,
          toAccountId: to.id,
          symbol: dto.symbol!,
          quantity: new Money(dto.quantity!).toFixed(),
          at: now,
        });
        Object.assign(row, { symbol: moved.symbol, asset_id: moved.assetId, cost_basis: moved.costBasis });
        unitsCurrency = moved.currency;
      }
      await this.repository.insert(manager, [row]);
      await this.activities.record(manager, principal, journalActivities(row, unitsCurrency));
      const view = journalView(row);
      await this.events.emit(manager, {
        tenantId: principal.tenantId,
        livemode: principal.livemode,
        event: 'journal.executed',
        data: { ...view },
      });
      return view;
    });
  }

  private async postCash(
    manager: EntityManager,
    principal: Principal,
    row: JournalRow,
    from: InvestmentAccountEntity,
    to: InvestmentAccountEntity,
  ): Promise<string> {
    this.cash.checkCurrency(row.currency!, 'currency');
    const limits = await this.settings.limits(principal.tenantId, manager);
    const received = new Map<string, Decimal>();
    if (to.account_type !== 'firm') {
      await this.repository.lockReceivers(manager, [to.id]);
      const today = await this.repository.receivedOn(manager, [to.id], row.currency!, row.business_date);
      received.set(to.id, new Money(today.get(to.id) ?? 0));
    }
    return this.cash.post(
      manager,
      principal,
      {
        journalId: row.id,
        from,
        to,
        currency: row.currency!,
        amount: row.amount!,
        at: row.created_at,
        description: row.description,
      },
      limits,
      received,
    );
  }
}

/** The fields of one entry type, and none of the other's (400 naming the field). */
function checkShape(dto: CreateJournalDto): void {
  const [needs, forbids] =
    dto.entry_type === 'JNLC'
      ? [
          ['amount', 'currency'],
          ['symbol', 'quantity'],
        ]
      : [
          ['symbol', 'quantity'],
          ['amount', 'currency'],
        ];
  for (const field of needs) {
    if (dto[field as keyof CreateJournalDto] === undefined) {
      throw ServiceError.missing(field, `A ${dto.entry_type} journal needs ${field}.`);
    }
  }
  for (const field of forbids) {
    if (dto[field as keyof CreateJournalDto] !== undefined) {
      throw ServiceError.invalid(field, `A ${dto.entry_type} journal takes no ${field}.`);
    }
  }
  if (dto.from_account_id === dto.to_account_id) {
    throw ServiceError.invalid('to_account_id', 'to_account_id must differ from from_account_id.');
  }
  if (dto.entry_type === 'JNLS' && new Money(dto.quantity!).lte(0)) {
    throw ServiceError.invalid('quantity', 'quantity must be above zero.');
  }
}

export function journalRow(
  principal: Principal,
  dto: Pick<
    CreateJournalDto,
    'entry_type' | 'amount' | 'currency' | 'symbol' | 'quantity' | 'description' | 'metadata'
  >,
  from: Pick<InvestmentAccountEntity, 'id' | 'investor_id'>,
  to: Pick<InvestmentAccountEntity, 'id' | 'investor_id'>,
  now: Date,
): JournalRow {
  return {
    id: newId('journal'),
    tenant_id: principal.tenantId,
    livemode: principal.livemode,
    entry_type: dto.entry_type,
    from_account_id: from.id,
    to_account_id: to.id,
    from_investor_id: from.investor_id,
    to_investor_id: to.investor_id,
    amount: dto.amount ?? null,
    currency: dto.currency ?? null,
    symbol: dto.symbol ?? null,
    asset_id: null,
    quantity: dto.quantity ?? null,
    cost_basis: null,
    description: dto.description ?? null,
    metadata: dto.metadata ?? {},
    status: 'executed',
    reject_reason: null,
    batch_id: null,
    ledger_journal_id: null,
    business_date: businessDate(now),
    created_at: now,
  };
}
