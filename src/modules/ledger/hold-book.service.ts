import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { WriteBatch } from 'src/core/database/write-batch';
import { Money } from 'src/core/money/money';
import { JournalBook } from 'src/modules/ledger/journal-book.service';
import { checkAmount } from 'src/modules/ledger/journal-rules';
import {
  LEDGER_ACCOUNT_KINDS,
  LedgerAccountKind,
  ledgerAccountId,
  LedgerAccountRef,
  LedgerScope,
} from 'src/modules/ledger/ledger-account-kinds';
import { InsufficientFundsError, LedgerRuleError } from 'src/modules/ledger/ledger-errors';
import { HoldRow, LedgerRepository, LockedHoldRow, NewHold } from 'src/modules/ledger/ledger.repository';
import type {
  FundsOptions,
  HoldInput,
  HoldView,
  PostHoldInput,
  VoidHoldInput,
} from 'src/modules/ledger/ledger.types';
import { TotalsChange } from 'src/modules/ledger/totals';

function view(row: HoldRow): HoldView {
  return {
    id: row.id,
    holdKey: row.hold_key,
    kind: row.kind,
    status: row.status,
    currency: row.currency,
    amount: new Money(row.amount),
    pendingAmount: new Money(row.pending_amount),
    reference: row.reference,
  };
}

/**
 * Two-phase transfers (TigerBeetle's pending transfers): a hold reserves an amount between two
 * accounts, counted in their pending totals; it is later posted by journals (all at once, or in
 * parts such as partial fills) or voided. Every call runs in the caller's transaction.
 */
@Injectable()
export class HoldBook {
  constructor(
    private readonly repository: LedgerRepository,
    private readonly journals: JournalBook,
  ) {}

  /**
   * Places a hold. A debit from a no-overdraft account (the investor's cash) must fit in available
   * cash, or InsufficientFundsError; the check is the UPDATE itself, so 50 concurrent holds on one
   * balance never take it below zero. The same key again returns the existing hold unchanged.
   */
  async hold(manager: EntityManager, input: HoldInput, options: FundsOptions = {}): Promise<HoldView> {
    const { hold, debit, credit } = await this.prepare(manager, input);
    const debitTotals = LEDGER_ACCOUNT_KINDS[input.debit.kind].keepsTotals;
    const creditTotals = LEDGER_ACCOUNT_KINDS[input.credit.kind].keepsTotals;
    if (debitTotals && creditTotals) {
      // Two rows to lock: the general path, which locks them in id order.
      const row = await this.repository.insertHold(manager, input, hold, null);
      if (!row) {
        return view((await this.repository.findHold(manager, input, input.holdKey))!);
      }
      await new TotalsChange()
        .add(debit.accountId, debit.account, { debitsPending: hold.amount })
        .add(credit.accountId, credit.account, { creditsPending: hold.amount })
        .apply(manager, this.repository, options.insufficientFundsParam);
      return view(row.row);
    }
    const placed = await this.repository.insertHold(manager, input, hold, this.totalsSide(input, hold));
    if (!placed) {
      return view((await this.repository.findHold(manager, input, input.holdKey))!);
    }
    if (!placed.applied) {
      throw new InsufficientFundsError(input.debit.currency, options.insufficientFundsParam);
    }
    return view(placed.row);
  }

  /**
   * hold() as statements of the caller's batch, for a hold of which at most one account keeps
   * totals (a hold between two such accounts is placed at once, as hold() does). The refusal
   * (InsufficientFundsError) comes when the batch runs; the same key again holds nothing more.
   */
  async holdInto(
    manager: EntityManager,
    batch: WriteBatch,
    input: HoldInput,
    options: FundsOptions = {},
  ): Promise<void> {
    if (
      LEDGER_ACCOUNT_KINDS[input.debit.kind].keepsTotals &&
      LEDGER_ACCOUNT_KINDS[input.credit.kind].keepsTotals
    ) {
      await this.hold(manager, input, options);
      return;
    }
    const { hold } = await this.prepare(manager, input);
    this.repository.insertHoldInto(batch, input, hold, this.totalsSide(input, hold), () => {
      throw new InsufficientFundsError(input.debit.currency, options.insufficientFundsParam);
    });
  }

  /** Checks a hold's amount and currencies and makes sure its two accounts exist. */
  private async prepare(manager: EntityManager, input: HoldInput) {
    if (input.debit.currency !== input.credit.currency) {
      throw new LedgerRuleError('a hold moves one currency');
    }
    const amount = checkAmount(input.debit, input.amount);
    checkAmount(input.credit, amount);
    const debit = { accountId: ledgerAccountId(input, input.debit), account: input.debit };
    const credit = { accountId: ledgerAccountId(input, input.credit), account: input.credit };
    await this.repository.ensureAccounts(manager, input, [debit, credit]);
    const hold: NewHold = {
      holdKey: input.holdKey,
      kind: input.kind,
      debitAccountId: debit.accountId,
      creditAccountId: credit.accountId,
      currency: input.debit.currency,
      amount,
      at: input.at,
      reference: input.reference,
    };
    return { hold, debit, credit };
  }

  /** The one account of a hold's two that keeps totals (null: neither does). */
  private totalsSide(input: HoldInput, hold: NewHold) {
    return LEDGER_ACCOUNT_KINDS[input.debit.kind].keepsTotals
      ? { accountId: hold.debitAccountId, side: 'debit' as const }
      : LEDGER_ACCOUNT_KINDS[input.credit.kind].keepsTotals
        ? { accountId: hold.creditAccountId, side: 'credit' as const }
        : null;
  }

  /**
   * Posts (part of) a pending hold with a journal, releasing `amount` from the pending totals (and,
   * unless `releaseRest` is false, whatever stays pending). The journal key makes a retry a no-op.
   */
  async postHold(
    manager: EntityManager,
    input: PostHoldInput,
    options: FundsOptions = {},
  ): Promise<HoldView> {
    const row = await this.lockPending(manager, input, input.holdKey, input.journal.journalKey);
    if (row.status !== 'pending' || (await this.journals.exists(manager, input, input.journal.journalKey))) {
      return view(row);
    }
    const used = new Money(input.amount);
    const pending = new Money(row.pending_amount);
    if (!used.isFinite() || used.lte(0) || used.gt(pending)) {
      throw new LedgerRuleError(
        `hold ${row.hold_key} has ${pending.toFixed()} pending; cannot post ${used.toString()}`,
      );
    }
    const released = input.releaseRest === false ? used : pending;
    const totals = this.release(row, released);
    await this.journals.post(
      manager,
      { ...input.journal, tenantId: input.tenantId, livemode: input.livemode },
      options,
      totals,
    );
    const left = pending.minus(released);
    return view(
      await this.repository.updateHold(manager, row.id, {
        pendingAmount: left,
        status: left.isZero() ? 'posted' : 'pending',
        resolvedAt: left.isZero() ? input.journal.effectiveAt : null,
      }),
    );
  }

  /** Releases what a hold still reserves. Voiding a voided hold is a no-op; a posted one is an error. */
  async voidHold(manager: EntityManager, input: VoidHoldInput): Promise<HoldView> {
    const row = await this.lockPending(manager, input, input.holdKey);
    if (row.status === 'voided') {
      return view(row);
    }
    if (row.status === 'posted') {
      throw new LedgerRuleError(`hold ${row.hold_key} is already posted`);
    }
    const pending = new Money(row.pending_amount);
    await this.release(row, pending).apply(manager, this.repository);
    const postedSome = !pending.eq(new Money(row.amount));
    return view(
      await this.repository.updateHold(manager, row.id, {
        pendingAmount: new Money(0),
        status: postedSome ? 'posted' : 'voided',
        resolvedAt: input.at,
      }),
    );
  }

  private async lockPending(
    manager: EntityManager,
    scope: LedgerScope,
    holdKey: string,
    journalKey?: string,
  ): Promise<LockedHoldRow> {
    const row = await this.repository.lockHold(manager, scope, holdKey);
    if (!row) {
      throw new LedgerRuleError(`no hold ${holdKey}${journalKey ? ` for journal ${journalKey}` : ''}`);
    }
    return row;
  }

  /** The pending-total decrements that release `amount` of a hold from both its accounts. */
  private release(row: LockedHoldRow, amount: Money): TotalsChange {
    const ref = (kind: string, ownerId: string | null): LedgerAccountRef => ({
      kind: kind as LedgerAccountKind,
      currency: row.currency,
      ...(ownerId ? { ownerId } : {}),
    });
    return new TotalsChange()
      .add(row.debit_account_id, ref(row.debit_kind, row.debit_owner_id), { debitsPending: amount.negated() })
      .add(row.credit_account_id, ref(row.credit_kind, row.credit_owner_id), {
        creditsPending: amount.negated(),
      });
  }
}
