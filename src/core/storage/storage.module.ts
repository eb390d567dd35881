import { Module } from '@nestjs/common';
import { AppConfig } from 'src/core/config/app-config.service';
import { DocumentStorage } from 'src/core/storage/document-storage';
import { FilesystemDocumentStorage } from 'src/core/storage/filesystem-document-storage';

/**
 * Provides the DocumentStorage. Today the filesystem under STORAGE_DIR; an S3-compatible
 * implementation would be chosen here from configuration.
 */
@Module({
  providers: [
    {
      provide: DocumentStorage,
      inject: [AppConfig],
      useFactory: (config: AppConfig) => new FilesystemDocumentStorage(config.get('STORAGE_DIR')),
    },
  ],
  exports: [DocumentStorage],
})
export class StorageModule {}
