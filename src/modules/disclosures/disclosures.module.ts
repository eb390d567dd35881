import { Module } from '@nestjs/common';
import { AccountsModule } from 'src/modules/accounts/accounts.module';
import { DisclosuresController } from 'src/modules/disclosures/disclosures.controller';
import { DisclosuresService } from 'src/modules/disclosures/disclosures.service';

@Module({
  imports: [AccountsModule],
  controllers: [DisclosuresController],
  providers: [DisclosuresService],
  exports: [DisclosuresService],
})
export class DisclosuresModule {}
