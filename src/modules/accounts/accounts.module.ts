import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccountLifecycleService } from 'src/modules/accounts/account-lifecycle.service';
import { AccountsController } from 'src/modules/accounts/accounts.controller';
import { AccountsService } from 'src/modules/accounts/accounts.service';
import { AccountAgreementEntity } from 'src/modules/accounts/entities/account-agreement.entity';
import { InvestmentAccountEntity } from 'src/modules/accounts/entities/investment-account.entity';

/**
 * Investment accounts. Other modules use AccountsService (scoped look-ups, the ACTIVE guard
 * for trading and money movement) and AccountLifecycleService (changes with their events).
 */
@Module({
  imports: [TypeOrmModule.forFeature([InvestmentAccountEntity, AccountAgreementEntity])],
  controllers: [AccountsController],
  providers: [AccountsService, AccountLifecycleService],
  exports: [AccountsService, AccountLifecycleService],
})
export class AccountsModule {}
