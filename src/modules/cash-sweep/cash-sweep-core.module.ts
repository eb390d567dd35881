import { Module } from '@nestjs/common';
import { ActivitiesCoreModule } from 'src/modules/activities/activities-core.module';
import { AprTiersRepository } from 'src/modules/cash-sweep/apr-tiers.repository';
import { CashSweepJobs } from 'src/modules/cash-sweep/cash-sweep-jobs';
import { EnrollmentsRepository } from 'src/modules/cash-sweep/enrollments.repository';
import { InterestAccrual } from 'src/modules/cash-sweep/interest-accrual.service';
import { InterestRepository } from 'src/modules/cash-sweep/interest.repository';
import { LedgerModule } from 'src/modules/ledger/ledger.module';

/**
 * Cash sweep without HTTP: the repositories, the accrual and payout, and their clock-driven jobs.
 * The API (CashSweepModule) and the worker process both import it.
 */
@Module({
  imports: [LedgerModule, ActivitiesCoreModule],
  providers: [AprTiersRepository, EnrollmentsRepository, InterestRepository, InterestAccrual, CashSweepJobs],
  exports: [AprTiersRepository, EnrollmentsRepository, InterestRepository, InterestAccrual],
})
export class CashSweepCoreModule {}
