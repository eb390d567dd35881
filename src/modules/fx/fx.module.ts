import { ActivitiesCoreModule } from 'src/modules/activities/activities-core.module';
import { Module } from '@nestjs/common';
import { AccountsModule } from 'src/modules/accounts/accounts.module';
import { ConversionsController } from 'src/modules/fx/conversions.controller';
import { FxController } from 'src/modules/fx/fx.controller';
import { FxConversionsService } from 'src/modules/fx/fx-conversions.service';
import { FxQuotesService } from 'src/modules/fx/fx-quotes.service';
import { FxRatesService } from 'src/modules/fx/fx-rates.service';
import { FxSettingsModule } from 'src/modules/fx/fx-settings.module';
import { FxRepository } from 'src/modules/fx/fx.repository';
import { ConvertCurrency } from 'src/modules/fx/use-cases/convert-currency.use-case';
import { LedgerModule } from 'src/modules/ledger/ledger.module';

/**
 * FX: simulated mid rates (and the test helper's), quotes, conversions between an account's
 * currency wallets through the ledger, and the tenant's spread (FxSettingsService, for the CLI and
 * the sandbox admin API).
 */
@Module({
  imports: [AccountsModule, LedgerModule, FxSettingsModule, ActivitiesCoreModule],
  controllers: [FxController, ConversionsController],
  providers: [FxRepository, FxRatesService, FxQuotesService, FxConversionsService, ConvertCurrency],
})
export class FxModule {}
