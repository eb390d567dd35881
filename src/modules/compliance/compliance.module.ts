import { Module } from '@nestjs/common';
import { AccountsModule } from 'src/modules/accounts/accounts.module';
import { ComplianceController } from 'src/modules/compliance/compliance.controller';
import { ComplianceService } from 'src/modules/compliance/compliance.service';
import { DocumentsModule } from 'src/modules/documents/documents.module';

@Module({
  imports: [AccountsModule, DocumentsModule],
  controllers: [ComplianceController],
  providers: [ComplianceService],
  exports: [ComplianceService],
})
export class ComplianceModule {}
