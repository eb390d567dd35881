import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccountsModule } from 'src/modules/accounts/accounts.module';
import { FundingSourceEntity } from 'src/modules/funding-sources/entities/funding-source.entity';
import { FirmFundingSourcesController } from 'src/modules/funding-sources/firm-funding-sources.controller';
import { FundingSourcesController } from 'src/modules/funding-sources/funding-sources.controller';
import { FundingSourcesRepository } from 'src/modules/funding-sources/funding-sources.repository';
import { FundingSourcesService } from 'src/modules/funding-sources/funding-sources.service';

/** Investors' bank accounts (fs_). Transfers use FundingSourcesService.usableIn. */
@Module({
  imports: [TypeOrmModule.forFeature([FundingSourceEntity]), AccountsModule],
  controllers: [FundingSourcesController, FirmFundingSourcesController],
  providers: [FundingSourcesRepository, FundingSourcesService],
  exports: [FundingSourcesService],
})
export class FundingSourcesModule {}
