import { Module } from '@nestjs/common';
import { AccountsModule } from 'src/modules/accounts/accounts.module';
import { FundingSourcesModule } from 'src/modules/funding-sources/funding-sources.module';
import { InvestorTransfersController } from 'src/modules/transfers/investor-transfers.controller';
import { TransferLifecycleModule } from 'src/modules/transfers/transfer-lifecycle.module';
import { TransferSettingsModule } from 'src/modules/transfers/transfer-settings.module';
import { TransfersService } from 'src/modules/transfers/transfers.service';
import { InitiateTransfer } from 'src/modules/transfers/use-cases/initiate-transfer.use-case';
import { WalletTestHelpersController } from 'src/modules/transfers/wallet-test-helpers.controller';
import { WalletController } from 'src/modules/transfers/wallet.controller';

/** Deposits and withdrawals (both views), their lifecycle, and the wallet reads. */
@Module({
  imports: [TransferSettingsModule, TransferLifecycleModule, AccountsModule, FundingSourcesModule],
  controllers: [WalletController, InvestorTransfersController, WalletTestHelpersController],
  providers: [InitiateTransfer, TransfersService],
})
export class TransfersModule {}
