import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { CursorPageQuery } from 'src/core/http/pagination';
import {
  DOCUMENT_STATUSES,
  DOCUMENT_TYPES,
  UPLOADABLE_DOCUMENT_TYPES,
  DocumentStatus,
  DocumentType,
} from 'src/modules/documents/entities/document.entity';
import { IsMetadata } from 'src/core/http/metadata';

/** Form fields of the upload besides `file`. */
export class UploadDocumentDto {
  @ApiProperty({ enum: UPLOADABLE_DOCUMENT_TYPES, example: 'passport' })
  @IsIn(UPLOADABLE_DOCUMENT_TYPES)
  type: DocumentType;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'Sent as form fields `metadata[key]=value`.',
    example: { source: 'mobile' },
  })
  @IsOptional()
  @IsMetadata()
  metadata?: Record<string, string>;
}

/** OpenAPI schema of the multipart body. */
export const UPLOAD_BODY_SCHEMA = {
  type: 'object',
  required: ['file', 'type'],
  properties: {
    file: {
      type: 'string',
      format: 'binary',
      description: 'The document: PDF, PNG or JPEG, its declared content type matching its bytes.',
    },
    type: { type: 'string', enum: [...UPLOADABLE_DOCUMENT_TYPES] },
    'metadata[key]': {
      type: 'string',
      maxLength: 500,
      description: 'Optional metadata, one field per key (up to 50 keys, values up to 500 characters).',
    },
  },
};

export class ListDocumentsQuery extends CursorPageQuery {
  @ApiPropertyOptional({ enum: DOCUMENT_TYPES })
  @IsOptional()
  @IsIn(DOCUMENT_TYPES)
  type?: DocumentType;

  @ApiPropertyOptional({ enum: DOCUMENT_STATUSES })
  @IsOptional()
  @IsIn(DOCUMENT_STATUSES)
  status?: DocumentStatus;
}
