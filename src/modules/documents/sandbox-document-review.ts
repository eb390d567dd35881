import type { DocumentEntity, DocumentStatus } from 'src/modules/documents/entities/document.entity';

export interface DocumentDecision {
  status: Extract<DocumentStatus, 'approved' | 'rejected'>;
  reason: string | null;
}

/** Sandbox review of a document: a file name containing `reject` (any case) is rejected. */
export function sandboxDocumentDecision(document: Pick<DocumentEntity, 'file_name'>): DocumentDecision {
  return /reject/i.test(document.file_name)
    ? { status: 'rejected', reason: 'The document could not be verified.' }
    : { status: 'approved', reason: null };
}
