import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccountsModule } from 'src/modules/accounts/accounts.module';
import { ComplianceModule } from 'src/modules/compliance/compliance.module';
import { DisclosuresModule } from 'src/modules/disclosures/disclosures.module';
import { InvestorEntity } from 'src/modules/investors/entities/investor.entity';
import { InvestorsController } from 'src/modules/investors/investors.controller';
import { InvestorsService } from 'src/modules/investors/investors.service';

@Module({
  imports: [TypeOrmModule.forFeature([InvestorEntity]), AccountsModule, ComplianceModule, DisclosuresModule],
  controllers: [InvestorsController],
  providers: [InvestorsService],
  exports: [InvestorsService],
})
export class InvestorsModule {}
