import { Injectable } from '@nestjs/common';
import { Readable } from 'node:stream';
import type { EntityManager } from 'typeorm';
import { EventsService } from 'src/core/events/events.service';
import { newId } from 'src/core/ids/ids';
import { DocumentStorage } from 'src/core/storage/document-storage';
import { toDocumentResource } from 'src/modules/documents/document-view';
import { DocumentEntity } from 'src/modules/documents/entities/document.entity';

export interface GeneratedDocumentInput {
  tenantId: string;
  livemode: boolean;
  investorId: string;
  accountId: string;
  type: 'trade_confirmation' | 'account_statement';
  /** Unique per tenant and mode (account and period): a second document with it is never made. */
  key: string;
  fileName: string;
  pdf: Buffer;
  data: Record<string, unknown>;
  at: Date;
}

/** The row as inserted, every column but its JSON (the document record is made of them). */
const RETURNED = `id, tenant_id, livemode, investor_id, account_id, type, status, file_name, content_type, size, sha256,
  storage_key, rejection_reason, reviewed_at, metadata, generated_key, created_at`;

/**
 * Documents the service makes (trade confirmations, account statements): stored like uploads,
 * `approved` at once, with their JSON, and announced by `document.created` in the same
 * transaction as the row.
 */
@Injectable()
export class GeneratedDocuments {
  constructor(
    private readonly storage: DocumentStorage,
    private readonly events: EventsService,
  ) {}

  /** Whether the document of this key exists (a retried job stops before rendering). */
  async exists(manager: EntityManager, scope: { tenantId: string; livemode: boolean }, key: string) {
    const rows: unknown[] = await manager.query(
      `SELECT 1 FROM documents WHERE tenant_id = $1 AND livemode = $2 AND generated_key = $3`,
      [scope.tenantId, scope.livemode, key],
    );
    return rows.length > 0;
  }

  /** Stores the PDF and the row; null (and nothing kept) when the key was already used. */
  async create(manager: EntityManager, input: GeneratedDocumentInput): Promise<DocumentEntity | null> {
    const stored = await this.storage.put(Readable.from(input.pdf));
    const id = newId('document');
    const inserted: DocumentEntity[] = await manager.query(
      `INSERT INTO documents (id, tenant_id, livemode, investor_id, account_id, type, status, file_name,
                              content_type, size, sha256, storage_key, metadata, reviewed_at, created_at,
                              generated_key, data)
       VALUES ($1, $2, $3, $4, $5, $6, 'approved', $7, 'application/pdf', $8, $9, $10, '{}', $11, $11, $12, $13)
       ON CONFLICT (tenant_id, livemode, generated_key) WHERE generated_key IS NOT NULL DO NOTHING
       RETURNING ${RETURNED}`,
      [
        id,
        input.tenantId,
        input.livemode,
        input.investorId,
        input.accountId,
        input.type,
        input.fileName,
        stored.size,
        stored.sha256,
        stored.key,
        input.at,
        input.key,
        JSON.stringify(input.data),
      ],
    );
    if (inserted.length === 0) {
      await this.storage.delete(stored.key);
      return null;
    }
    const document = manager.create(DocumentEntity, { ...inserted[0], data: input.data });
    await this.events.emit(manager, {
      tenantId: input.tenantId,
      livemode: input.livemode,
      event: 'document.created',
      data: { ...toDocumentResource(document), investor_id: input.investorId, account_id: input.accountId },
    });
    return document;
  }
}
