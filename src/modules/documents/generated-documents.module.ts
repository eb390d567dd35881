import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { StorageModule } from 'src/core/storage/storage.module';
import { DocumentEntity } from 'src/modules/documents/entities/document.entity';
import { GeneratedDocuments } from 'src/modules/documents/generated-documents.service';

/** Making documents without HTTP: the statements jobs (API or worker) use it. */
@Module({
  imports: [TypeOrmModule.forFeature([DocumentEntity]), StorageModule],
  providers: [GeneratedDocuments],
  exports: [GeneratedDocuments],
})
export class GeneratedDocumentsModule {}
