import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Principal } from 'src/core/auth/principal';
import { ClockService } from 'src/core/clock/clock.service';
import { ServiceError } from 'src/core/errors/service-error';
import { AccountsService } from 'src/modules/accounts/accounts.service';
import {
  cashText,
  interestEntryView,
  InterestEntryView,
  interestText,
  payoutView,
  PayoutView,
} from 'src/modules/cash-sweep/cash-sweep-views';
import { DEFAULT_INTEREST_PAGE, InterestHistoryQuery } from 'src/modules/cash-sweep/dto/cash-sweep.inputs';
import { EnrollmentsRepository } from 'src/modules/cash-sweep/enrollments.repository';
import { EnrollmentsService } from 'src/modules/cash-sweep/enrollments.service';
import { marketDay, monthOf } from 'src/modules/cash-sweep/interest-math';
import { InterestFilter, InterestRepository } from 'src/modules/cash-sweep/interest.repository';
import { decodeInterestToken, encodeInterestToken } from 'src/modules/cash-sweep/page-token';
import { addDays, parseCalendarDate } from 'src/modules/markets/calendar';

/** A real calendar day (2027-02-30 is not), else 400 naming the parameter. */
function checkedDate(value: string | undefined, param: string): string | undefined {
  if (value !== undefined) {
    parseCalendarDate(value, param);
  }
  return value;
}

/** Cash sweep reads: an investor's interest history and overview; the program's totals and payouts. */
@Injectable()
export class CashSweepReads {
  constructor(
    private readonly accounts: AccountsService,
    private readonly enrollmentsService: EnrollmentsService,
    private readonly enrollments: EnrollmentsRepository,
    private readonly interest: InterestRepository,
    private readonly clock: ClockService,
    private readonly dataSource: DataSource,
  ) {}

  /** Oldest first; `next_page_token` continues with the same filters (null on the last page). */
  async interestHistory(principal: Principal, investorId: string, query: InterestHistoryQuery, url: string) {
    const filter: InterestFilter = {
      date: checkedDate(query.date, 'date'),
      after: checkedDate(query.after, 'after'),
      before: checkedDate(query.before, 'before'),
    };
    const cursor = query.page_token ? decodeInterestToken(query.page_token, filter) : null;
    const account = await this.accounts.findInvestorAccount(principal, investorId);
    const size = query.page_size ?? DEFAULT_INTEREST_PAGE;
    const rows = await this.interest.page(
      this.dataSource.manager,
      principal,
      account.investor_id,
      filter,
      cursor,
      size + 1,
    );
    const page = rows.slice(0, size);
    const hasMore = rows.length > size;
    const last = page[page.length - 1];
    return {
      object: 'list' as const,
      url,
      has_more: hasMore,
      data: page.map((row): InterestEntryView => interestEntryView(row, principal.livemode)),
      next_page_token: hasMore
        ? encodeInterestToken({ date: last.date, currency: last.currency }, filter)
        : null,
    };
  }

  /** The investor's enrollment, this month's accrual so far, the last day accrued and the last payout. */
  async overview(principal: Principal, investorId: string) {
    const manager = this.dataSource.manager;
    const account = await this.accounts.findInvestorAccount(principal, investorId);
    const enrollment = await this.enrollmentsService.current(manager, account);
    const today = marketDay(await this.clock.now(principal), account.currency);
    const accrued = await this.interest.accruedSince(manager, account.id, `${monthOf(today)}-01`);
    const mine = accrued.get(account.currency);
    const [lastPayout] = await this.interest.payouts(
      manager,
      principal,
      { accountId: account.id, currency: account.currency },
      1,
    );
    const lastDay = await this.interest.lastAccruedDay(manager, principal, account.id);
    return {
      object: 'cash_sweep' as const,
      livemode: principal.livemode,
      investor_id: account.investor_id,
      enrollment,
      accrued_this_month: interestText(mine?.accrued ?? 0),
      last_accrued_date: lastDay,
      last_payout: lastPayout ? payoutView(lastPayout, principal.livemode) : null,
    };
  }

  /** Per currency: enrolled accounts, cash swept on the last day accrued, accrued this month, paid this year. */
  async summary(principal: Principal, url: string) {
    const manager = this.dataSource.manager;
    const now = await this.clock.now(principal);
    const today = marketDay(now, 'USD');
    const lastDay = (await this.interest.lastAccruedDay(manager, principal)) ?? addDays(today, -1);
    const totals = await this.interest.programTotals(manager, principal, `${monthOf(today)}-01`, lastDay);
    const counts = await this.enrollments.enrolledCounts(manager, principal);
    const paid = await this.interest.paidSince(
      manager,
      principal,
      new Date(`${today.slice(0, 4)}-01-01T00:00:00Z`),
    );
    const currencies = [
      ...new Set([...counts.keys(), ...totals.map((t) => t.currency), ...paid.keys()]),
    ].sort();
    const data = currencies.map((currency) => {
      const t = totals.find((x) => x.currency === currency);
      return {
        object: 'cash_sweep_summary' as const,
        livemode: principal.livemode,
        currency,
        enrolled_accounts: counts.get(currency) ?? 0,
        as_of: lastDay,
        swept_cash: cashText(t?.swept ?? 0, currency),
        accrued_this_month: interestText(t?.accrued ?? 0),
        correspondent_fees_this_month: interestText(t?.fees ?? 0),
        paid_this_year: cashText(paid.get(currency) ?? 0, currency),
      };
    });
    return { object: 'list' as const, url, has_more: false, data };
  }

  /** Payouts newest first, cursor `starting_after`. */
  async payouts(
    principal: Principal,
    query: { limit?: number; starting_after?: string; account_id?: string; currency?: string },
    url: string,
  ) {
    const manager = this.dataSource.manager;
    let startingAfter: { paidAt: Date; id: string } | undefined;
    if (query.starting_after !== undefined) {
      const anchor = await this.interest.findPayout(manager, principal, query.starting_after);
      if (!anchor) {
        throw ServiceError.invalid(
          'starting_after',
          `starting_after must be a payout id: '${query.starting_after}'.`,
        );
      }
      startingAfter = { paidAt: anchor.paid_at, id: anchor.id };
    }
    if (query.account_id !== undefined) {
      await this.accounts.findAccountForPrincipal(principal, query.account_id);
    }
    const limit = query.limit ?? 50;
    const rows = await this.interest.payouts(
      manager,
      principal,
      { accountId: query.account_id, currency: query.currency, startingAfter },
      limit + 1,
    );
    return {
      object: 'list' as const,
      url,
      has_more: rows.length > limit,
      data: rows.slice(0, limit).map((r): PayoutView => payoutView(r, principal.livemode)),
    };
  }
}
