import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository } from 'typeorm';
import { EventsService } from 'src/core/events/events.service';
import type { InvestmentAccountEntity } from 'src/modules/accounts/entities/investment-account.entity';
import { toDocumentResource } from 'src/modules/documents/document-view';
import { DocumentEntity, DocumentStatus, DocumentType } from 'src/modules/documents/entities/document.entity';
import { DocumentDecision, sandboxDocumentDecision } from 'src/modules/documents/sandbox-document-review';

/**
 * Review of KYC documents: decisions are written with their `document.approved` /
 * `document.rejected` events in the caller's transaction.
 */
@Injectable()
export class DocumentReviewService {
  constructor(
    @InjectRepository(DocumentEntity) private readonly documents: Repository<DocumentEntity>,
    private readonly events: EventsService,
  ) {}

  /** Type and status of each document per account, for the KYC requirements. */
  async documentsByAccount(
    accountIds: string[],
    manager?: EntityManager,
  ): Promise<Map<string, Array<{ type: DocumentType; status: DocumentStatus }>>> {
    const byAccount = new Map<string, Array<{ type: DocumentType; status: DocumentStatus }>>(
      accountIds.map((id) => [id, []]),
    );
    if (accountIds.length > 0) {
      const rows = await (manager ?? this.documents.manager).find(DocumentEntity, {
        select: { account_id: true, type: true, status: true },
        where: { account_id: In(accountIds) },
      });
      rows.forEach((row) => byAccount.get(row.account_id)?.push({ type: row.type, status: row.status }));
    }
    return byAccount;
  }

  /** Sandbox: decides every pending document of the account by its file name. */
  async reviewPending(manager: EntityManager, account: InvestmentAccountEntity): Promise<DocumentEntity[]> {
    return this.decidePending(manager, account, sandboxDocumentDecision);
  }

  /** Forced approval (test helper): every pending document is approved. */
  async approvePending(manager: EntityManager, account: InvestmentAccountEntity): Promise<DocumentEntity[]> {
    return this.decidePending(manager, account, () => ({ status: 'approved', reason: null }));
  }

  /** Decides one freshly uploaded document (sandbox, after KYC submission). */
  async review(manager: EntityManager, document: DocumentEntity): Promise<DocumentEntity> {
    return this.decide(manager, document, sandboxDocumentDecision(document));
  }

  private async decidePending(
    manager: EntityManager,
    account: InvestmentAccountEntity,
    decideOne: (document: DocumentEntity) => DocumentDecision,
  ): Promise<DocumentEntity[]> {
    const pending = await manager.find(DocumentEntity, {
      where: { account_id: account.id, status: 'pending' },
      order: { created_at: 'ASC', id: 'ASC' },
    });
    const decided: DocumentEntity[] = [];
    for (const document of pending) {
      decided.push(await this.decide(manager, document, decideOne(document)));
    }
    return decided;
  }

  private async decide(
    manager: EntityManager,
    document: DocumentEntity,
    decision: DocumentDecision,
  ): Promise<DocumentEntity> {
    document.status = decision.status;
    document.rejection_reason = decision.reason;
    document.reviewed_at = new Date();
    await manager.update(
      DocumentEntity,
      { id: document.id },
      {
        status: document.status,
        rejection_reason: document.rejection_reason,
        reviewed_at: document.reviewed_at,
      },
    );
    await this.events.emit(manager, {
      tenantId: document.tenant_id,
      livemode: document.livemode,
      event: decision.status === 'approved' ? 'document.approved' : 'document.rejected',
      data: { ...toDocumentResource(document) },
    });
    return document;
  }
}
