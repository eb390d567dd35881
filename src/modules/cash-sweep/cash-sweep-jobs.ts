import { Injectable, OnModuleInit } from '@nestjs/common';
import { JobRegistry } from 'src/core/scheduler/job-registry';
import { addDays } from 'src/modules/markets/calendar';
import {
  ACCRUE_DAY_JOB,
  InterestAccrual,
  PAY_MONTH_JOB,
} from 'src/modules/cash-sweep/interest-accrual.service';

/**
 * The clock-driven steps. `cash_sweep.accrue_day` (per tenant, mode and currency) accrues a day
 * when it ends and schedules the next one, so the chain follows the tenant's clock day by day;
 * `cash_sweep.pay_month` pays a month on the next month's first business day.
 */
@Injectable()
export class CashSweepJobs implements OnModuleInit {
  constructor(
    private readonly registry: JobRegistry,
    private readonly accrual: InterestAccrual,
  ) {}

  onModuleInit(): void {
    this.registry.register(ACCRUE_DAY_JOB, {
      run: async (manager, job) => {
        const scope = { tenantId: job.tenantId, livemode: job.livemode };
        const currency = String(job.payload.currency);
        const date = String(job.payload.date);
        await this.accrual.accrueDay(manager, scope, currency, date);
        await this.accrual.scheduleDay(manager, scope, currency, addDays(date, 1));
      },
    });
    this.registry.register(PAY_MONTH_JOB, {
      run: async (manager, job) => {
        const scope = { tenantId: job.tenantId, livemode: job.livemode };
        await this.accrual.payMonth(
          manager,
          scope,
          String(job.payload.currency),
          String(job.payload.month),
          job.now,
        );
      },
    });
  }
}
