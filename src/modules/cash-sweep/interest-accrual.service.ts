import { ActivitiesService } from 'src/modules/activities/activities.service';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type Decimal from 'decimal.js';
import { EventsService } from 'src/core/events/events.service';
import { newId } from 'src/core/ids/ids';
import { JobScheduler } from 'src/core/scheduler/job-scheduler.service';
import type { SweepScope } from 'src/modules/cash-sweep/apr-tiers.repository';
import { payoutView } from 'src/modules/cash-sweep/cash-sweep-views';
import { EnrollmentsRepository } from 'src/modules/cash-sweep/enrollments.repository';
import {
  dailyInterest,
  endOfMarketDay,
  isLastDayOfMonth,
  lastInstantOf,
  monthOf,
  payoutAmount,
  payoutInstant,
} from 'src/modules/cash-sweep/interest-math';
import { InterestRepository, InterestRow, PayoutRow } from 'src/modules/cash-sweep/interest.repository';
import { LedgerService } from 'src/modules/ledger/ledger.service';

export const ACCRUE_DAY_JOB = 'cash_sweep.accrue_day';
export const PAY_MONTH_JOB = 'cash_sweep.pay_month';

/**
 * The daily accrual and the monthly payout, each inside the caller's transaction (a job run or
 * the test helper). Both are idempotent by their keys: a day's entries are unique per account,
 * currency and date; a month's payout per account, currency and month (and its journal key).
 */
@Injectable()
export class InterestAccrual {
  constructor(
    private readonly enrollments: EnrollmentsRepository,
    private readonly interest: InterestRepository,
    private readonly ledger: LedgerService,
    private readonly scheduler: JobScheduler,
    private readonly events: EventsService,
    private readonly activities: ActivitiesService,
  ) {}

  /** Schedules the accrual of `date`, due when the day ends in the market's time zone. */
  async scheduleDay(
    manager: EntityManager,
    scope: SweepScope,
    currency: string,
    date: string,
  ): Promise<void> {
    await this.scheduler.schedule(manager, {
      ...scope,
      kind: ACCRUE_DAY_JOB,
      dueAt: endOfMarketDay(date, currency),
      payload: { currency, date },
      dedupeKey: `${currency}:${date}`,
    });
  }

  /**
   * One entry per enrolled account for `date`, from the settled cash at the day's end; entries
   * already written stay. On a month's last day the month's payout is scheduled. How many were new.
   */
  async accrueDay(
    manager: EntityManager,
    scope: SweepScope,
    currency: string,
    date: string,
  ): Promise<number> {
    const accounts = await this.enrollments.accruingOn(manager, scope, currency, date);
    const at = lastInstantOf(date, currency);
    const cashByAccount = await this.ledger.cashAtMany(
      scope,
      accounts.map((a) => a.account_id),
      currency,
      at,
      manager,
    );
    const rows: InterestRow[] = [];
    for (const account of accounts) {
      const cash = cashByAccount.get(account.account_id)!;
      rows.push({
        account_id: account.account_id,
        investor_id: account.investor_id,
        currency,
        date,
        apr_tier_id: account.tier_id,
        apr_tier_name: account.tier_name,
        cash_balance: cash.toFixed(),
        account_rate_bps: account.account_rate_bps,
        account_accrued_interest: dailyInterest(cash, account.account_rate_bps).toFixed(8),
        correspondent_rate_bps: account.correspondent_rate_bps,
        correspondent_fee: dailyInterest(cash, account.correspondent_rate_bps).toFixed(8),
      });
    }
    const written = await this.interest.insertEntries(manager, scope, rows);
    if (isLastDayOfMonth(date)) {
      const month = monthOf(date);
      await this.scheduler.schedule(manager, {
        ...scope,
        kind: PAY_MONTH_JOB,
        dueAt: payoutInstant(month, currency),
        payload: { currency, month },
        dedupeKey: `${currency}:${month}`,
      });
    }
    return written;
  }

  /**
   * Pays each account the month's accrual rounded half-even to minor units: the payout row, the
   * ledger journal (interest expense → investor cash) and `cash_sweep.interest.paid`, together.
   * A month already paid for an account is skipped; nothing is paid when it rounds to zero.
   */
  async payMonth(
    manager: EntityManager,
    scope: SweepScope,
    currency: string,
    month: string,
    now: Date,
  ): Promise<number> {
    let paid = 0;
    for (const total of await this.interest.monthTotals(manager, scope, currency, month)) {
      const amount = payoutAmount(total.accrued, currency);
      if (amount.lte(0)) {
        continue;
      }
      const payout: PayoutRow = {
        id: newId('interestPayout'),
        account_id: total.account_id,
        investor_id: total.investor_id,
        currency,
        month,
        amount: amount.toFixed(),
        accrued_interest: total.accrued,
        correspondent_fee: total.fees,
        days: total.days,
        paid_at: now,
      };
      if (!(await this.interest.insertPayout(manager, scope, payout))) {
        continue;
      }
      await this.recordPayout(manager, scope, payout, amount, now);
      paid++;
    }
    return paid;
  }

  /** A new payout's journal (interest expense → investor cash), INT activity and event. */
  private async recordPayout(
    manager: EntityManager,
    scope: SweepScope,
    payout: PayoutRow,
    amount: Decimal,
    now: Date,
  ): Promise<void> {
    const { account_id: accountId, currency, month } = payout;
    await this.ledger.post(manager, {
      ...scope,
      journalKey: `interest:${accountId}:${currency}:${month}`,
      kind: 'interest.payout',
      effectiveAt: now,
      reference: payout.id,
      description: `Cash sweep interest ${month}`,
      entries: [
        { account: { kind: 'interest_expense', currency }, direction: 'debit', amount },
        { account: { kind: 'investor_cash', ownerId: accountId, currency }, direction: 'credit', amount },
      ],
    });
    await this.activities.record(manager, scope, {
      key: `interest:${accountId}:${currency}:${month}`,
      accountId,
      type: 'INT',
      at: now,
      currency,
      netAmount: amount,
      description: `Cash sweep interest ${month}`,
    });
    await this.events.emit(manager, {
      ...scope,
      event: 'cash_sweep.interest.paid',
      data: payoutView(payout, scope.livemode),
    });
  }
}
