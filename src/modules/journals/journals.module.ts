import { ActivitiesCoreModule } from 'src/modules/activities/activities-core.module';
import { Module } from '@nestjs/common';
import { AccountsModule } from 'src/modules/accounts/accounts.module';
import { JournalCash } from 'src/modules/journals/journal-cash.service';
import { JournalSettingsModule } from 'src/modules/journals/journal-settings.service';
import { JournalsController } from 'src/modules/journals/journals.controller';
import { JournalsRepository } from 'src/modules/journals/journals.repository';
import { JournalsService } from 'src/modules/journals/journals.service';
import { CreateJournalBatch } from 'src/modules/journals/use-cases/create-journal-batch.use-case';
import { CreateJournal } from 'src/modules/journals/use-cases/create-journal.use-case';
import { LedgerModule } from 'src/modules/ledger/ledger.module';
import { TradingModule } from 'src/modules/trading/trading.module';

/**
 * Journals between accounts of one tenant and mode: JNLC through the ledger, JNLS through the
 * trading module's positions, single and batch, within the tenant's limits.
 */
@Module({
  imports: [AccountsModule, LedgerModule, TradingModule, JournalSettingsModule, ActivitiesCoreModule],
  controllers: [JournalsController],
  providers: [JournalsRepository, JournalCash, JournalsService, CreateJournal, CreateJournalBatch],
})
export class JournalsModule {}
