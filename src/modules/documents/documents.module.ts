import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { StorageModule } from 'src/core/storage/storage.module';
import { AccountsModule } from 'src/modules/accounts/accounts.module';
import { DocumentReviewService } from 'src/modules/documents/document-review.service';
import { DocumentUploadInterceptor } from 'src/modules/documents/document-upload.interceptor';
import { DocumentsController } from 'src/modules/documents/documents.controller';
import { DocumentsService } from 'src/modules/documents/documents.service';
import { DocumentEntity } from 'src/modules/documents/entities/document.entity';

/** KYC documents. Compliance uses DocumentReviewService for requirements and reviews. */
@Module({
  imports: [TypeOrmModule.forFeature([DocumentEntity]), StorageModule, AccountsModule],
  controllers: [DocumentsController],
  providers: [DocumentsService, DocumentReviewService, DocumentUploadInterceptor],
  exports: [DocumentReviewService],
})
export class DocumentsModule {}
