import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import type { EntityManager } from 'typeorm';
import { ServiceError } from 'src/core/errors/service-error';
import { isSupportedCurrency, minorUnits } from 'src/core/money/currencies';
import { Money } from 'src/core/money/money';
import type { InvestmentAccountEntity } from 'src/modules/accounts/entities/investment-account.entity';
import { JournalLimitError } from 'src/modules/journals/journal-errors';
import type { JournalLimits } from 'src/modules/journals/journal-settings.service';
import { LedgerService } from 'src/modules/ledger/ledger.service';
import type { LedgerScope } from 'src/modules/ledger/ledger-account-kinds';

type Side = Pick<InvestmentAccountEntity, 'id' | 'account_type' | 'investor_id'>;

/** One cash journal (JNLC) as the ledger sees it, with the limits checked first. */
export interface CashMove {
  journalId: string;
  from: Side;
  to: Side;
  currency: string;
  amount: string;
  at: Date;
  description: string | null;
}

/**
 * The checks and the ledger journal of a JNLC: the amount (400 naming `amount`), the tenant's
 * limits (422 SVC-422-008 naming `amount`; the firm account receives without a daily limit), then
 * one ledger journal from the source's cash to the target's (422 SVC-422-002 naming `amount` when
 * the source's available cash is short). `received` holds what each target already received today
 * and is advanced here.
 */
@Injectable()
export class JournalCash {
  constructor(private readonly ledger: LedgerService) {}

  checkCurrency(currency: string, param: string): void {
    if (!isSupportedCurrency(currency)) {
      throw ServiceError.invalid(
        param,
        `Cash in ${currency} does not move here; send a supported ISO 4217 code.`,
      );
    }
  }

  async post(
    manager: EntityManager,
    scope: LedgerScope,
    move: CashMove,
    limits: JournalLimits,
    received: Map<string, Decimal>,
  ): Promise<string> {
    const amount = this.check(move, limits, received);
    const posted = await this.ledger.post(manager, { ...scope, ...this.journalInput(move) }, FUNDS);
    received.set(move.to.id, (received.get(move.to.id) ?? new Money(0)).plus(amount));
    return posted.id;
  }

  /**
   * Many JNLC of one batch in one ledger write, each checked first (a failing entry throws before
   * anything is written). `available` is the source's available cash, lowered entry by entry: an
   * entry above it is refused here as the ledger would refuse it. Throws InsufficientFundsError
   * when the source was drained meanwhile (the caller then posts entry by entry).
   */
  async postMany(manager: EntityManager, scope: LedgerScope, moves: CashMove[]): Promise<string[]> {
    const posted = await this.ledger.postMany(
      manager,
      scope,
      moves.map((m) => this.journalInput(m)),
      FUNDS,
    );
    return posted.map((p) => p.id);
  }

  /** The amount and limit checks of one JNLC (throws the refusal); the amount when it passes. */
  check(move: CashMove, limits: JournalLimits, received: Map<string, Decimal>): Decimal {
    const amount = new Money(move.amount);
    const dp = minorUnits(move.currency);
    if (amount.lte(0) || amount.decimalPlaces() > dp) {
      throw ServiceError.invalid(
        'amount',
        `amount must be above zero with at most ${dp} decimals in ${move.currency}.`,
      );
    }
    if (amount.gt(limits.perEntry)) {
      throw JournalLimitError.perJournal(limits.perEntry, move.currency);
    }
    const before = received.get(move.to.id) ?? new Money(0);
    if (move.to.account_type !== 'firm' && before.plus(amount).gt(limits.perDayPerAccount)) {
      throw JournalLimitError.perAccountPerDay(move.to.id, before, move.currency, limits.perDayPerAccount);
    }
    return amount;
  }

  private journalInput(move: CashMove) {
    const amount = new Money(move.amount);
    const dp = minorUnits(move.currency);
    return {
      journalKey: `journal:${move.journalId}`,
      kind: 'journal.cash',
      effectiveAt: move.at,
      reference: move.journalId,
      description:
        `JNLC ${amount.toFixed(dp)} ${move.currency} from ${move.from.id} to ${move.to.id}` +
        (move.description ? `: ${move.description}` : ''),
      entries: [
        {
          account: { kind: 'investor_cash' as const, ownerId: move.from.id, currency: move.currency },
          direction: 'debit' as const,
          amount,
        },
        {
          account: { kind: 'investor_cash' as const, ownerId: move.to.id, currency: move.currency },
          direction: 'credit' as const,
          amount,
        },
      ],
    };
  }
}

const FUNDS = { insufficientFundsParam: 'amount' };
