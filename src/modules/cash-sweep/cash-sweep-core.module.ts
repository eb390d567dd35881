import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { InvestmentAccountEntity } from 'src/modules/accounts/entities/investment-account.entity';
import { ActivitiesCoreModule } from 'src/modules/activities/activities-core.module';
import { AprTiersRepository } from 'src/modules/cash-sweep/apr-tiers.repository';
import { CashSweepJobs } from 'src/modules/cash-sweep/cash-sweep-jobs';
import {
  CashSweepEnrollmentEntity,
  CashSweepInterestEntity,
  CashSweepPayoutEntity,
  CashSweepTierEntity,
} from 'src/modules/cash-sweep/entities/cash-sweep.entities';
import { EnrollmentsRepository } from 'src/modules/cash-sweep/enrollments.repository';
import { InterestAccrual } from 'src/modules/cash-sweep/interest-accrual.service';
import { InterestRepository } from 'src/modules/cash-sweep/interest.repository';
import { LedgerModule } from 'src/modules/ledger/ledger.module';

/**
 * Cash sweep without HTTP: the repositories, the accrual and payout, and their clock-driven jobs.
 * The API (CashSweepModule) and the worker process both import it.
 */
@Module({
  imports: [
    // Entities for the schema check only (the repositories query these tables with their own SQL),
    // with the accounts' entity their foreign keys name.
    TypeOrmModule.forFeature([
      CashSweepTierEntity,
      CashSweepEnrollmentEntity,
      CashSweepInterestEntity,
      CashSweepPayoutEntity,
      InvestmentAccountEntity,
    ]),
    LedgerModule,
    ActivitiesCoreModule,
  ],
  providers: [AprTiersRepository, EnrollmentsRepository, InterestRepository, InterestAccrual, CashSweepJobs],
  exports: [AprTiersRepository, EnrollmentsRepository, InterestRepository, InterestAccrual],
})
export class CashSweepCoreModule {}
