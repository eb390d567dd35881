import { Injectable, StreamableFile } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { Principal } from 'src/core/auth/principal';
import { ServiceError } from 'src/core/errors/service-error';
import { listUrl, ListEnvelope, toList } from 'src/core/http/envelope';
import { paginateByCursor } from 'src/core/http/pagination';
import { isIdOf, newId } from 'src/core/ids/ids';
import type { IdempotentRequest } from 'src/core/idempotency/idempotent-request';
import { IdempotentTransaction } from 'src/core/idempotency/idempotent-transaction';
import { DocumentStorage } from 'src/core/storage/document-storage';
import { AccountsService } from 'src/modules/accounts/accounts.service';
import { cleanFileName, contentDisposition, sniffContentType } from 'src/modules/documents/content-signature';
import { DocumentReviewService } from 'src/modules/documents/document-review.service';
import type { UploadedDocumentFile } from 'src/modules/documents/document-upload.interceptor';
import { toDocumentResource } from 'src/modules/documents/document-view';
import type { DocumentDto } from 'src/modules/documents/dto/document.dto';
import type { ListDocumentsQuery, UploadDocumentDto } from 'src/modules/documents/dto/upload-document.dto';
import {
  DOCUMENT_CONTENT_TYPES,
  DocumentContentType,
  DocumentEntity,
} from 'src/modules/documents/entities/document.entity';

/** `Accept: application/json` (without also accepting PDF first). */
function wantsJson(accept: string | undefined): boolean {
  const first = (accept ?? '').split(',')[0].trim().toLowerCase();
  return first.startsWith('application/json');
}

/** Content type of an upload whose client did not know it; the magic bytes decide. */
const GENERIC_CONTENT_TYPE = 'application/octet-stream';

/** KYC documents of an investor: upload (checked and hashed), list, metadata, download. */
@Injectable()
export class DocumentsService {
  constructor(
    private readonly transactions: IdempotentTransaction,
    @InjectRepository(DocumentEntity) private readonly documents: Repository<DocumentEntity>,
    private readonly accounts: AccountsService,
    private readonly review: DocumentReviewService,
    private readonly storage: DocumentStorage,
  ) {}

  /**
   * Records an uploaded document. The declared content type must be PDF, PNG or JPEG and match
   * the file's magic bytes (400-001 param file). Uploads to a CLOSED account: 409. In the
   * sandbox a document waits for the KYC submission while the account is SUBMITTED; after
   * that it is reviewed at once.
   *
   * The bytes are already stored when this runs; the transaction commits the row, its events and
   * the idempotent response together. A crash between the two leaves at worst a stored file no
   * row names (never a row without its file).
   */
  async upload(
    principal: Principal,
    investorId: string,
    body: UploadDocumentDto,
    file: UploadedDocumentFile | undefined,
    idem: IdempotentRequest | undefined,
  ): Promise<DocumentDto> {
    await this.accounts.findInvestorAccount(principal, investorId);
    if (!file) {
      throw ServiceError.missing(
        'file',
        "Missing required field file: send the document as the form field 'file'.",
      );
    }
    const declared = checkedContentType(file);
    return this.transactions.run(idem, async (manager) => {
      const account = await this.accounts.findInvestorAccount(principal, investorId, manager, { lock: true });
      if (account.status === 'CLOSED') {
        throw ServiceError.conflict(`Account ${account.id} is CLOSED and accepts no documents.`);
      }
      const created = await manager.save(
        manager.create(DocumentEntity, {
          id: newId('document'),
          tenant_id: principal.tenantId,
          livemode: principal.livemode,
          investor_id: account.investor_id,
          account_id: account.id,
          type: body.type,
          status: 'pending',
          file_name: cleanFileName(file.originalname),
          content_type: declared,
          size: file.stored.size,
          sha256: file.stored.sha256,
          storage_key: file.stored.key,
          rejection_reason: null,
          reviewed_at: null,
          metadata: body.metadata ?? {},
        }),
      );
      const document =
        !principal.livemode && account.status !== 'SUBMITTED'
          ? await this.review.review(manager, created)
          : created;
      return toDocumentResource(document);
    });
  }

  async list(
    principal: Principal,
    investorId: string,
    query: ListDocumentsQuery,
    req: { originalUrl: string },
  ): Promise<ListEnvelope<DocumentDto>> {
    const account = await this.accounts.findInvestorAccount(principal, investorId);
    const qb = this.documents
      .createQueryBuilder('d')
      .where('d.tenant_id = :tenantId', { tenantId: principal.tenantId })
      .andWhere('d.livemode = :livemode', { livemode: principal.livemode })
      .andWhere('d.account_id = :accountId', { accountId: account.id });
    if (query.type) {
      qb.andWhere('d.type = :type', { type: query.type });
    }
    if (query.status) {
      qb.andWhere('d.status = :status', { status: query.status });
    }
    const page = await paginateByCursor(qb, query);
    return toList(listUrl(req), page.data.map(toDocumentResource), page.hasMore);
  }

  async get(principal: Principal, investorId: string, documentId: string): Promise<DocumentDto> {
    return toDocumentResource(await this.find(principal, investorId, documentId));
  }

  /**
   * The stored bytes with the original content type, as an attachment; a generated document (trade
   * confirmation, account statement) answers its JSON instead when the client accepts JSON only.
   */
  async download(
    principal: Principal,
    investorId: string,
    documentId: string,
    accept?: string,
  ): Promise<StreamableFile> {
    const document = await this.find(principal, investorId, documentId);
    if (document.data && wantsJson(accept)) {
      const json = Buffer.from(JSON.stringify(document.data));
      return new StreamableFile(json, {
        type: 'application/json; charset=utf-8',
        length: json.length,
        disposition: contentDisposition(document.file_name.replace(/\.pdf$/, '.json')),
      });
    }
    const stream = await this.storage.getStream(document.storage_key);
    return new StreamableFile(stream, {
      type: document.content_type,
      length: document.size,
      disposition: contentDisposition(document.file_name),
    });
  }

  private async find(principal: Principal, investorId: string, documentId: string): Promise<DocumentEntity> {
    const account = await this.accounts.findInvestorAccount(principal, investorId);
    const document = isIdOf('document', documentId)
      ? await this.documents.findOneBy({
          id: documentId,
          tenant_id: principal.tenantId,
          livemode: principal.livemode,
          account_id: account.id,
        })
      : null;
    if (!document) {
      throw ServiceError.notFound('document', documentId);
    }
    return document;
  }
}

/**
 * The content type to store: the declared one, or for a generic type (application/octet-stream)
 * the one the bytes show; 400 naming `file` when it is not a document type or the bytes disagree.
 */
function checkedContentType(file: UploadedDocumentFile): DocumentContentType {
  // A generic type (application/octet-stream) defers to the bytes: the sniffed type is stored.
  const sniffed = sniffContentType(file.stored.head);
  const declared = (file.mimetype === GENERIC_CONTENT_TYPE ? sniffed : file.mimetype) as DocumentContentType;
  if (!DOCUMENT_CONTENT_TYPES.includes(declared)) {
    throw ServiceError.invalid(
      'file',
      file.mimetype === GENERIC_CONTENT_TYPE
        ? `The file is not ${DOCUMENT_CONTENT_TYPES.join(', ')} (its content matches none of them).`
        : `Unsupported content type '${file.mimetype}'; send ${DOCUMENT_CONTENT_TYPES.join(', ')}.`,
    );
  }
  if (sniffed !== declared) {
    throw ServiceError.invalid('file', `The file content is not ${declared} as declared.`);
  }
  return declared;
}
