import { toResource, unixSeconds } from 'src/core/http/envelope';
import type { DocumentDto } from 'src/modules/documents/dto/document.dto';
import type { DocumentEntity } from 'src/modules/documents/entities/document.entity';

export function toDocumentResource(document: DocumentEntity): DocumentDto {
  return toResource(
    'document',
    {
      id: document.id,
      created_at: document.created_at,
      livemode: document.livemode,
      metadata: document.metadata,
    },
    {
      investor_id: document.investor_id,
      account_id: document.account_id,
      type: document.type,
      status: document.status,
      file_name: document.file_name,
      content_type: document.content_type,
      size: document.size,
      sha256: document.sha256,
      rejection_reason: document.rejection_reason,
      reviewed_at: unixSeconds(document.reviewed_at),
    },
  ) as DocumentDto;
}
