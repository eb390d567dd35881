import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccountClosing } from 'src/modules/accounts/account-closing';
import { AccountEquity } from 'src/modules/accounts/account-equity';
import { AccountOpenings } from 'src/modules/accounts/account-openings';
import { AccountSuspension } from 'src/modules/accounts/account-suspension';
import { AccountLifecycleService } from 'src/modules/accounts/account-lifecycle.service';
import { AccountsController } from 'src/modules/accounts/accounts.controller';
import { AccountsRepository } from 'src/modules/accounts/accounts.repository';
import { AccountsService } from 'src/modules/accounts/accounts.service';
import { AccountAgreementEntity } from 'src/modules/accounts/entities/account-agreement.entity';
import { InvestmentAccountEntity } from 'src/modules/accounts/entities/investment-account.entity';
import { LedgerModule } from 'src/modules/ledger/ledger.module';

/**
 * Investment accounts. Other modules use AccountsService (scoped look-ups, the ACTIVE guard
 * for trading and money movement), AccountLifecycleService (changes with their events) and
 * AccountEquity (trading registers positions into `last_equity`), AccountOpenings (work done
 * in the opening transaction, such as cash sweep enrollment), AccountClosing (trading and
 * transfers say what an account still holds, which refuses its close) and AccountSuspension
 * (trading cancels the open orders of a suspended account).
 */
/** What other modules may inject. */
const SHARED = [
  AccountsService,
  AccountLifecycleService,
  AccountEquity,
  AccountOpenings,
  AccountClosing,
  AccountSuspension,
];

@Module({
  imports: [TypeOrmModule.forFeature([InvestmentAccountEntity, AccountAgreementEntity]), LedgerModule],
  controllers: [AccountsController],
  providers: [...SHARED, AccountsRepository],
  exports: SHARED,
})
export class AccountsModule {}
