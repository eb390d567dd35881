import { Module } from '@nestjs/common';
import { AccountOwnersModule } from 'src/modules/accounts/account-owners';
import { ActivitiesCoreModule } from 'src/modules/activities/activities-core.module';
import { GeneratedDocumentsModule } from 'src/modules/documents/generated-documents.module';
import { LedgerModule } from 'src/modules/ledger/ledger.module';
import { BrandingModule } from 'src/modules/statements/branding.module';
import { ConfirmationBuilder } from 'src/modules/statements/confirmation-builder';
import { StatementBuilder } from 'src/modules/statements/statement-builder';
import { StatementJobs } from 'src/modules/statements/statement-jobs';
import { TradingEngineModule } from 'src/modules/trading/trading-engine.module';

/**
 * Trade confirmations and monthly statements (docs/decisions.md, Trade confirmations and monthly statements): their
 * data, PDFs and clock-driven jobs, and the tenant branding printed on them. The API and the
 * worker process import it.
 */
@Module({
  imports: [
    ActivitiesCoreModule,
    AccountOwnersModule,
    BrandingModule,
    GeneratedDocumentsModule,
    LedgerModule,
    TradingEngineModule,
  ],
  providers: [ConfirmationBuilder, StatementBuilder, StatementJobs],
})
export class StatementsCoreModule {}
