import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LedgerAccountEntity } from 'src/modules/ledger/entities/ledger-account.entity';
import { LedgerEntryEntity } from 'src/modules/ledger/entities/ledger-entry.entity';
import { LedgerHoldEntity } from 'src/modules/ledger/entities/ledger-hold.entity';
import { LedgerJournalEntity } from 'src/modules/ledger/entities/ledger-journal.entity';
import { HoldBook } from 'src/modules/ledger/hold-book.service';
import { JournalBook } from 'src/modules/ledger/journal-book.service';
import { LedgerAudit } from 'src/modules/ledger/ledger-audit.service';
import { LedgerReader } from 'src/modules/ledger/ledger-reader.service';
import { LedgerHoldsRepository } from 'src/modules/ledger/ledger-holds.repository';
import { LedgerRepository } from 'src/modules/ledger/ledger.repository';
import { LedgerService } from 'src/modules/ledger/ledger.service';

/**
 * Double-entry ledger in PostgreSQL: journals, immutable entries, two-phase holds, balances. No
 * controller: money modules call LedgerService (docs/ledger.md). It calls no other module.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([LedgerAccountEntity, LedgerJournalEntity, LedgerEntryEntity, LedgerHoldEntity]),
  ],
  providers: [
    LedgerRepository,
    LedgerHoldsRepository,
    JournalBook,
    HoldBook,
    LedgerReader,
    LedgerAudit,
    LedgerService,
  ],
  exports: [LedgerService, LedgerAudit],
})
export class LedgerModule {}
