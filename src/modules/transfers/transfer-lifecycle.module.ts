import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ActivitiesCoreModule } from 'src/modules/activities/activities-core.module';
import { InvestmentAccountEntity } from 'src/modules/accounts/entities/investment-account.entity';
import { LedgerModule } from 'src/modules/ledger/ledger.module';
import { TransferEntity } from 'src/modules/transfers/entities/transfer.entity';
import { TransferJobs } from 'src/modules/transfers/transfer-jobs';
import { TransferLifecycle } from 'src/modules/transfers/transfer-lifecycle.service';
import { TransfersRepository } from 'src/modules/transfers/transfers.repository';

/**
 * The transfer lifecycle and its clock-driven jobs, without HTTP: the API (TransfersModule) and the
 * worker process both import it, so either can run a transfer's next step.
 */
@Module({
  // The account entity is listed only for the transfers table's foreign key metadata (the worker
  // process has no AccountsModule); transfers never read accounts' rows.
  imports: [
    TypeOrmModule.forFeature([TransferEntity, InvestmentAccountEntity]),
    LedgerModule,
    ActivitiesCoreModule,
  ],
  providers: [TransfersRepository, TransferLifecycle, TransferJobs],
  exports: [TransfersRepository, TransferLifecycle, LedgerModule],
})
export class TransferLifecycleModule {}
