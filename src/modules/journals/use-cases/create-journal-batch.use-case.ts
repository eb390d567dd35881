import { ActivitiesService } from 'src/modules/activities/activities.service';
import { journalActivities } from 'src/modules/journals/journal-activities';
import { Injectable } from '@nestjs/common';
import { isUUID } from 'class-validator';
import Decimal from 'decimal.js';
import type { EntityManager } from 'typeorm';
import type { Principal } from 'src/core/auth/principal';
import { ClockService } from 'src/core/clock/clock.service';
import type { WriteBatch } from 'src/core/database/write-batch';
import { EventsService } from 'src/core/events/events.service';
import { ServiceError } from 'src/core/errors/service-error';
import { ListEnvelope, toList } from 'src/core/http/envelope';
import type { IdempotentRequest } from 'src/core/idempotency/idempotent-request';
import { IdempotentTransaction } from 'src/core/idempotency/idempotent-transaction';
import { Money } from 'src/core/money/money';
import { assertAccountActive, AccountsService } from 'src/modules/accounts/accounts.service';
import type { InvestmentAccountEntity } from 'src/modules/accounts/entities/investment-account.entity';
import type {
  BatchJournalEntryDto,
  CreateJournalBatchDto,
  JournalDto,
} from 'src/modules/journals/dto/journal.dto';
import { CashMove, JournalCash } from 'src/modules/journals/journal-cash.service';
import { JournalLimits, JournalSettingsService } from 'src/modules/journals/journal-settings.service';
import { businessDate, journalView } from 'src/modules/journals/journal-views';
import { JournalRow, JournalsRepository } from 'src/modules/journals/journals.repository';
import { InsufficientFundsError } from 'src/modules/ledger/ledger-errors';
import { LedgerService } from 'src/modules/ledger/ledger.service';
import { journalRow } from 'src/modules/journals/use-cases/create-journal.use-case';
import { newId } from 'src/core/ids/ids';

interface BatchContext {
  principal: Principal;
  from: InvestmentAccountEntity;
  currency: string;
  targets: Map<string, InvestmentAccountEntity>;
  limits: JournalLimits;
  received: Map<string, Decimal>;
  batchId: string;
  now: Date;
}

/**
 * POST /journals/batch: up to 1,000 JNLC from one account in one currency. The source (404, 422-001)
 * and the currency are checked for the whole batch; then each entry executes or is rejected on its
 * own (a savepoint each: a refused entry leaves no trace but its `rejected` journal, with the code
 * and message it would have answered alone). One transaction holds them all with their events and
 * the idempotent response; the journal rows go to PostgreSQL in one statement.
 *
 * The executed entries' JNLC activities are recorded in the same transaction.
 */
@Injectable()
export class CreateJournalBatch {
  constructor(
    private readonly transactions: IdempotentTransaction,
    private readonly accounts: AccountsService,
    private readonly settings: JournalSettingsService,
    private readonly cash: JournalCash,
    private readonly ledger: LedgerService,
    private readonly repository: JournalsRepository,
    private readonly events: EventsService,
    private readonly clock: ClockService,
    private readonly activities: ActivitiesService,
  ) {}

  execute(
    principal: Principal,
    dto: CreateJournalBatchDto,
    url: string,
    idem: IdempotentRequest | undefined,
  ): Promise<ListEnvelope<JournalDto>> {
    this.cash.checkCurrency(dto.currency, 'currency');
    return this.transactions.run(idem, async (manager, batch) => {
      const from = await this.accounts.findAccountForPrincipal(principal, dto.from_account_id, manager, {
        lock: 'share',
      });
      assertAccountActive(from, 'from_account_id');
      const now = await this.clock.now(principal, manager);
      const ids = [...new Set(dto.entries.map((e) => e.to_account_id))].filter((id) => isUUID(id));
      const targets = await this.accounts.accountsByIds(principal, ids, manager);
      const receivers = [...targets.values()].filter((a) => a.account_type !== 'firm').map((a) => a.id);
      await this.repository.lockReceivers(manager, receivers);
      const today = await this.repository.receivedOn(manager, receivers, dto.currency, businessDate(now));
      const context: BatchContext = {
        principal,
        from,
        currency: dto.currency,
        targets,
        limits: await this.settings.limits(principal.tenantId, manager),
        received: new Map(receivers.map((id) => [id, new Money(today.get(id) ?? 0)])),
        batchId: newId('journal'),
        now,
      };
      const rows = await this.postAll(manager, context, dto.entries);
      await this.repository.insert(manager, rows);
      await this.activities.record(
        manager,
        principal,
        rows.flatMap((row) => journalActivities(row)),
      );
      this.emit(batch, principal, rows);
      return toList(url, rows.map(journalView), false);
    });
  }

  /**
   * The fast path: every entry checked in memory (target, limits, and the source's available cash
   * lowered entry by entry), then the accepted ones in one ledger write. Should the source have been
   * drained by another request meanwhile, that write is undone and each entry goes on its own.
   */
  private async postAll(
    manager: EntityManager,
    context: BatchContext,
    entries: BatchJournalEntryDto[],
  ): Promise<JournalRow[]> {
    const received = new Map(context.received);
    const balance = (await this.ledger.balances(context.principal, context.from.id, manager)).find(
      (b) => b.currency === context.currency,
    );
    let available: Decimal = balance?.available ?? new Money(0);
    const planned = entries.map((entry) => {
      const { row, to } = this.rowOf(context, entry);
      try {
        const move = this.move(context, row, this.target(context, entry, to));
        const amount = this.cash.check(move, context.limits, received);
        if (amount.gt(available)) {
          throw new InsufficientFundsError(context.currency, 'amount');
        }
        available = available.minus(amount);
        received.set(move.to.id, (received.get(move.to.id) ?? new Money(0)).plus(amount));
        return { row, move };
      } catch (err) {
        return { row: rejected(row, err), move: null };
      }
    });
    const moves = planned.filter((p) => p.move !== null);
    await manager.query('SAVEPOINT journal_batch');
    try {
      const ids = await this.cash.postMany(
        manager,
        context.principal,
        moves.map((p) => p.move!),
      );
      moves.forEach((p, i) => (p.row.ledger_journal_id = ids[i]));
      await manager.query('RELEASE SAVEPOINT journal_batch');
      return planned.map((p) => p.row);
    } catch (err) {
      if (!(err instanceof InsufficientFundsError)) {
        throw err;
      }
      await manager.query('ROLLBACK TO SAVEPOINT journal_batch');
      const rows: JournalRow[] = [];
      for (const entry of entries) {
        rows.push(await this.entry(manager, context, entry));
      }
      return rows;
    }
  }

  /** The slow path: one savepoint per entry, the ledger deciding each. */
  private async entry(
    manager: EntityManager,
    context: BatchContext,
    entry: BatchJournalEntryDto,
  ): Promise<JournalRow> {
    const { row, to } = this.rowOf(context, entry);
    await manager.query('SAVEPOINT journal_entry');
    try {
      const move = this.move(context, row, this.target(context, entry, to));
      row.ledger_journal_id = await this.cash.post(
        manager,
        context.principal,
        move,
        context.limits,
        context.received,
      );
      await manager.query('RELEASE SAVEPOINT journal_entry');
      return row;
    } catch (err) {
      await manager.query('ROLLBACK TO SAVEPOINT journal_entry');
      return rejected(row, err);
    }
  }

  private rowOf(context: BatchContext, entry: BatchJournalEntryDto) {
    const to = context.targets.get(entry.to_account_id);
    const row = journalRow(
      context.principal,
      { ...entry, entry_type: 'JNLC', currency: context.currency },
      context.from,
      to ?? { id: entry.to_account_id, investor_id: null },
      context.now,
    );
    row.batch_id = context.batchId;
    return { row, to };
  }

  private target(
    context: BatchContext,
    entry: BatchJournalEntryDto,
    to: InvestmentAccountEntity | undefined,
  ): InvestmentAccountEntity {
    if (!to) {
      throw ServiceError.notFound('account', entry.to_account_id);
    }
    if (to.id === context.from.id) {
      throw ServiceError.invalid('to_account_id', 'to_account_id must differ from from_account_id.');
    }
    assertAccountActive(to, 'to_account_id');
    return to;
  }

  private move(context: BatchContext, row: JournalRow, to: InvestmentAccountEntity): CashMove {
    return {
      journalId: row.id,
      from: context.from,
      to,
      currency: context.currency,
      amount: row.amount!,
      at: context.now,
      description: row.description,
    };
  }

  private emit(batch: WriteBatch, principal: Principal, rows: JournalRow[]): void {
    for (const row of rows.filter((r) => r.status === 'executed')) {
      this.events.emitInto(batch, {
        tenantId: principal.tenantId,
        livemode: principal.livemode,
        event: 'journal.executed',
        data: { ...journalView(row) },
      });
    }
  }
}

/** A refused entry: `rejected` with the code and message it would have answered alone. */
function rejected(row: JournalRow, err: unknown): JournalRow {
  if (!(err instanceof ServiceError)) {
    throw err;
  }
  return {
    ...row,
    status: 'rejected',
    reject_reason: `${err.code}${err.param ? ` (${err.param})` : ''}: ${err.message}`,
  };
}
