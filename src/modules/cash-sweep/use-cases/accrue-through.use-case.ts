import { Injectable } from '@nestjs/common';
import type { Principal } from 'src/core/auth/principal';
import { ClockService } from 'src/core/clock/clock.service';
import { ServiceError } from 'src/core/errors/service-error';
import type { IdempotentRequest } from 'src/core/idempotency/idempotent-request';
import { IdempotentTransaction } from 'src/core/idempotency/idempotent-transaction';
import { EnrollmentsRepository } from 'src/modules/cash-sweep/enrollments.repository';
import { InterestAccrual } from 'src/modules/cash-sweep/interest-accrual.service';
import { isLastDayOfMonth, marketDay, monthOf, payoutInstant } from 'src/modules/cash-sweep/interest-math';
import { addDays, parseCalendarDate } from 'src/modules/markets/calendar';

/** How far back one call reaches (ten years of days). */
const MAX_DAYS = 3660;

export interface AccrualRun {
  object: 'cash_sweep_accrual';
  livemode: boolean;
  through: string;
  days_accrued: number;
  entries_written: number;
  payouts_made: number;
}

/**
 * The test helper: accrues every ended day up to `through` at once (days already accrued stay as
 * they are) and pays each month whose payout day has come on the clock. The daily jobs that later
 * reach those days find them done.
 */
@Injectable()
export class AccrueThrough {
  constructor(
    private readonly transactions: IdempotentTransaction,
    private readonly enrollments: EnrollmentsRepository,
    private readonly accrual: InterestAccrual,
    private readonly clock: ClockService,
  ) {}

  execute(principal: Principal, through: string, idem: IdempotentRequest | undefined): Promise<AccrualRun> {
    parseCalendarDate(through, 'through');
    const scope = { tenantId: principal.tenantId, livemode: principal.livemode };
    return this.transactions.run(idem, async (manager) => {
      const now = await this.clock.now(principal, manager);
      const today = marketDay(now, 'USD');
      if (through >= today) {
        throw ServiceError.invalid(
          'through',
          `through must be a day that has ended: before ${today} (New York).`,
        );
      }
      const run: AccrualRun = {
        object: 'cash_sweep_accrual',
        livemode: principal.livemode,
        through,
        days_accrued: 0,
        entries_written: 0,
        payouts_made: 0,
      };
      for (const { currency, first } of await this.enrollments.currencies(manager, scope)) {
        const ended = addDays(marketDay(now, currency), -1);
        const last = through < ended ? through : ended;
        let day = first > addDays(last, -MAX_DAYS) ? first : addDays(last, -MAX_DAYS);
        for (; day <= last; day = addDays(day, 1)) {
          run.entries_written += await this.accrual.accrueDay(manager, scope, currency, day);
          run.days_accrued++;
          if (isLastDayOfMonth(day) && payoutInstant(monthOf(day), currency) <= now) {
            run.payouts_made += await this.accrual.payMonth(manager, scope, currency, monthOf(day), now);
          }
        }
      }
      return run;
    });
  }
}
