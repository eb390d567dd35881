import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import type { EntityManager } from 'typeorm';
import type { WriteBatch } from 'src/core/database/write-batch';
import { HoldBook } from 'src/modules/ledger/hold-book.service';
import { JournalBook } from 'src/modules/ledger/journal-book.service';
import type { LedgerScope } from 'src/modules/ledger/ledger-account-kinds';
import { LedgerReader } from 'src/modules/ledger/ledger-reader.service';
import type {
  CashBalance,
  FundsOptions,
  HoldInput,
  HoldView,
  JournalInput,
  PostedJournal,
  PostHoldInput,
  VoidHoldInput,
} from 'src/modules/ledger/ledger.types';

/**
 * The ledger other modules call (docs/ledger.md). Writes run in the caller's transaction, beside
 * its state change and outbox event; balances are derived from journals and holds only.
 */
@Injectable()
export class LedgerService {
  constructor(
    private readonly journals: JournalBook,
    private readonly holds: HoldBook,
    private readonly reader: LedgerReader,
  ) {}

  /** A balanced journal; its key makes a retry a no-op. */
  post(manager: EntityManager, journal: JournalInput, options?: FundsOptions): Promise<PostedJournal> {
    return this.journals.post(manager, journal, options);
  }

  /**
   * Many balanced journals of one scope at once, all or none (a batch of journals between accounts):
   * a few statements however many there are.
   */
  postMany(
    manager: EntityManager,
    scope: LedgerScope,
    journals: Array<Omit<JournalInput, 'tenantId' | 'livemode'>>,
    options?: FundsOptions,
  ): Promise<PostedJournal[]> {
    return this.journals.postMany(manager, scope, journals, options);
  }

  /** The mirror image of a posted journal, linked to it: how a correction is made. */
  reverse(
    manager: EntityManager,
    input: LedgerScope & { journalKey: string; reversalKey: string; effectiveAt: Date; description?: string },
    options?: FundsOptions,
  ): Promise<PostedJournal> {
    return this.journals.reverse(manager, input, options);
  }

  /** Reserves an amount (two-phase transfer, first phase). */
  hold(manager: EntityManager, input: HoldInput, options?: FundsOptions): Promise<HoldView> {
    return this.holds.hold(manager, input, options);
  }

  /**
   * hold() as statements of the caller's batch (one round trip with the caller's other writes); a
   * refusal (InsufficientFundsError) comes when the batch runs.
   */
  holdInto(
    manager: EntityManager,
    batch: WriteBatch,
    input: HoldInput,
    options?: FundsOptions,
  ): Promise<void> {
    return this.holds.holdInto(manager, batch, input, options);
  }

  /** Posts all or part of a hold with a journal (second phase). */
  postHold(manager: EntityManager, input: PostHoldInput, options?: FundsOptions): Promise<HoldView> {
    return this.holds.postHold(manager, input, options);
  }

  /** Releases a hold without posting (failed or canceled transfer, canceled order). */
  voidHold(manager: EntityManager, input: VoidHoldInput): Promise<HoldView> {
    return this.holds.voidHold(manager, input);
  }

  /** Cash per currency of one investment account (none yet: an empty list). */
  async balances(scope: LedgerScope, ownerId: string, manager?: EntityManager): Promise<CashBalance[]> {
    return (await this.reader.balances(scope, [ownerId], manager)).get(ownerId) ?? [];
  }

  /** Cash per currency of several investment accounts at once (lists). */
  balancesOf(
    scope: LedgerScope,
    ownerIds: string[],
    manager?: EntityManager,
  ): Promise<Map<string, CashBalance[]>> {
    return this.reader.balances(scope, ownerIds, manager);
  }

  /** Settled cash of an account in one currency as of a clock instant (end-of-day balances). */
  cashAt(
    scope: LedgerScope,
    ownerId: string,
    currency: string,
    instant: Date,
    manager?: EntityManager,
  ): Promise<Decimal> {
    return this.reader.cashAt(scope, ownerId, currency, instant, manager);
  }

  /** cashAt for many accounts at once (one query): settled cash per account id. */
  cashAtMany(
    scope: LedgerScope,
    ownerIds: string[],
    currency: string,
    instant: Date,
    manager?: EntityManager,
  ): Promise<Map<string, Decimal>> {
    return this.reader.cashAtMany(scope, ownerIds, currency, instant, manager);
  }

  /**
   * Settled cash of an account at each of many instants (ascending), per currency of its cash
   * accounts (alphabetical), in one query: the days of a statement.
   */
  cashSeries(
    scope: LedgerScope,
    ownerId: string,
    instants: Date[],
    manager?: EntityManager,
  ): Promise<Map<string, Decimal[]>> {
    return this.reader.cashSeries(scope, ownerId, instants, manager);
  }
}
