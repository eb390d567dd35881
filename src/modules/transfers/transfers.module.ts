import { Module, OnModuleInit } from '@nestjs/common';
import { AccountClosing } from 'src/modules/accounts/account-closing';
import { AccountsModule } from 'src/modules/accounts/accounts.module';
import { FundingSourcesModule } from 'src/modules/funding-sources/funding-sources.module';
import { InvestorTransfersController } from 'src/modules/transfers/investor-transfers.controller';
import { TransferLifecycleModule } from 'src/modules/transfers/transfer-lifecycle.module';
import { TransferSettingsModule } from 'src/modules/transfers/transfer-settings.module';
import { TransfersRepository } from 'src/modules/transfers/transfers.repository';
import { TransfersService } from 'src/modules/transfers/transfers.service';
import { InitiateTransfer } from 'src/modules/transfers/use-cases/initiate-transfer.use-case';
import { WalletTestHelpersController } from 'src/modules/transfers/wallet-test-helpers.controller';
import { FirmAccountController } from 'src/modules/transfers/firm-account.controller';
import { WalletController } from 'src/modules/transfers/wallet.controller';

/** Deposits and withdrawals (both views), their lifecycle, and the wallet reads. */
@Module({
  imports: [TransferSettingsModule, TransferLifecycleModule, AccountsModule, FundingSourcesModule],
  controllers: [
    WalletController,
    InvestorTransfersController,
    WalletTestHelpersController,
    FirmAccountController,
  ],
  providers: [InitiateTransfer, TransfersService],
})
export class TransfersModule implements OnModuleInit {
  constructor(
    private readonly closing: AccountClosing,
    private readonly transfers: TransfersRepository,
  ) {}

  /** A transfer still pending or processing keeps its account from closing (it would settle there). */
  onModuleInit(): void {
    this.closing.register({
      outstanding: async (account, manager) => {
        const scope = { tenantId: account.tenant_id, livemode: account.livemode };
        const n = await this.transfers.countInFlight(manager, scope, account.id);
        return n > 0 ? [`${n} transfer${n === 1 ? '' : 's'} in flight`] : [];
      },
    });
  }
}
