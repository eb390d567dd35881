import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
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
  imports: [TypeOrmModule.forFeature([TransferEntity]), LedgerModule],
  providers: [TransfersRepository, TransferLifecycle, TransferJobs],
  exports: [TransfersRepository, TransferLifecycle, LedgerModule],
})
export class TransferLifecycleModule {}
