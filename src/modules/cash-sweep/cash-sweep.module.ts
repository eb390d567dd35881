import { Module } from '@nestjs/common';
import { AccountsModule } from 'src/modules/accounts/accounts.module';
import { AccrueThrough } from 'src/modules/cash-sweep/use-cases/accrue-through.use-case';
import { AprTiersService } from 'src/modules/cash-sweep/apr-tiers.service';
import { CashSweepCoreModule } from 'src/modules/cash-sweep/cash-sweep-core.module';
import { CashSweepReads } from 'src/modules/cash-sweep/cash-sweep-reads.service';
import {
  CashSweepController,
  CashSweepTestHelpersController,
} from 'src/modules/cash-sweep/cash-sweep.controller';
import { EnrollmentsService } from 'src/modules/cash-sweep/enrollments.service';

/**
 * Cash sweep (core): enrollment at account opening, the investor's interest reads and the accrual
 * test helper. Cash Management (the add-on) works through the services exported here.
 */
@Module({
  imports: [CashSweepCoreModule, AccountsModule],
  controllers: [CashSweepController, CashSweepTestHelpersController],
  providers: [AprTiersService, EnrollmentsService, CashSweepReads, AccrueThrough],
  exports: [AprTiersService, EnrollmentsService, CashSweepReads],
})
export class CashSweepModule {}
