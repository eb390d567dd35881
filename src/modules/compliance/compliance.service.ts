import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { Principal } from 'src/core/auth/principal';
import { unixSeconds } from 'src/core/http/envelope';
import { EventsService } from 'src/core/events/events.service';
import { ServiceError } from 'src/core/errors/service-error';
import type { IdempotentRequest } from 'src/core/idempotency/idempotent-request';
import { IdempotentTransaction } from 'src/core/idempotency/idempotent-transaction';
import { AccountLifecycleService } from 'src/modules/accounts/account-lifecycle.service';
import { nextStatus } from 'src/modules/accounts/account-transitions';
import { AccountsService } from 'src/modules/accounts/accounts.service';
import type { KycStatus } from 'src/modules/accounts/entities/account-types';
import type { InvestmentAccountEntity } from 'src/modules/accounts/entities/investment-account.entity';
import type { InvestorAccount } from 'src/modules/accounts/accounts.service';
import type { KycSummaryDto, KycVerificationDto } from 'src/modules/compliance/dto/kyc-verification.dto';
import { missingRequirements } from 'src/modules/compliance/kyc-requirements';
import { KycRejectionReason, sandboxKycDecision } from 'src/modules/compliance/sandbox-kyc-review';
import { DocumentReviewService } from 'src/modules/documents/document-review.service';

/**
 * KYC of an investor's account application: what is missing, submission, and the decision.
 * In test mode the sandbox decides at submission from the data; in live mode the application
 * waits in PENDING_APPROVAL for the broker's compliance review.
 */
@Injectable()
export class ComplianceService {
  constructor(
    private readonly transactions: IdempotentTransaction,
    private readonly accounts: AccountsService,
    private readonly lifecycle: AccountLifecycleService,
    private readonly documents: DocumentReviewService,
    private readonly events: EventsService,
  ) {}

  /** The `kyc` block of several investors at once (two queries whatever their number). */
  async summaries(
    accounts: InvestmentAccountEntity[],
    manager?: EntityManager,
  ): Promise<Map<string, KycSummaryDto>> {
    const missing = await this.missingFor(accounts, manager);
    return new Map(accounts.map((a) => [a.id, { status: a.kyc_status, missing: missing.get(a.id) ?? [] }]));
  }

  async get(principal: Principal, investorId: string): Promise<KycVerificationDto> {
    return this.view(await this.accounts.findInvestorAccount(principal, investorId));
  }

  /**
   * Submits the application: 409 unless the account is SUBMITTED, 422 while something is
   * missing; then PENDING_APPROVAL (`account.updated`), and in the sandbox the review at once.
   */
  async submit(
    principal: Principal,
    investorId: string,
    idem: IdempotentRequest | undefined,
  ): Promise<KycVerificationDto> {
    return this.transactions.run(idem, async (manager) => {
      const account = await this.accounts.findInvestorAccount(principal, investorId, manager, { lock: true });
      nextStatus(account.status, 'submit_kyc');
      const missing = (await this.missingFor([account], manager)).get(account.id) ?? [];
      if (missing.length > 0) {
        throw ServiceError.refused(`KYC cannot be submitted yet; missing: ${missing.join(', ')}.`);
      }
      await this.markSubmitted(manager, account);
      if (!principal.livemode) {
        const reviewed = await this.documents.reviewPending(manager, account);
        const decision = sandboxKycDecision(
          {
            last_name: account.identity.last_name,
            is_politically_exposed: account.disclosures.is_politically_exposed,
          },
          reviewed,
        );
        if (decision.outcome === 'approved') {
          await this.approve(manager, account);
        } else if (decision.outcome === 'rejected') {
          await this.reject(manager, account, decision.reasons);
        }
      }
      return this.view(account, manager);
    });
  }

  /** Test helper: approves whatever the data, submitting first if needed; pending documents are approved. */
  async forceApprove(
    principal: Principal,
    investorId: string,
    idem: IdempotentRequest | undefined,
  ): Promise<KycVerificationDto> {
    return this.transactions.run(idem, async (manager) => {
      const account = await this.accounts.findInvestorAccount(principal, investorId, manager, { lock: true });
      if (account.status === 'SUBMITTED') {
        await this.markSubmitted(manager, account);
      }
      nextStatus(account.status, 'approve_kyc');
      await this.documents.approvePending(manager, account);
      await this.approve(manager, account);
      return this.view(account, manager);
    });
  }

  /** Test helper: rejects a SUBMITTED or PENDING_APPROVAL application (reason `rejected_in_review`). */
  async forceReject(
    principal: Principal,
    investorId: string,
    idem: IdempotentRequest | undefined,
  ): Promise<KycVerificationDto> {
    return this.transactions.run(idem, async (manager) => {
      const account = await this.accounts.findInvestorAccount(principal, investorId, manager, { lock: true });
      await this.reject(manager, account, ['rejected_in_review']);
      return this.view(account, manager);
    });
  }

  private markSubmitted(manager: EntityManager, account: InvestmentAccountEntity) {
    return this.lifecycle.transition(manager, account, 'submit_kyc', {
      kyc_status: 'in_review',
      submitted_at: new Date(),
      decided_at: null,
      rejection_reasons: [],
    });
  }

  /** ACTIVE (`account.updated`), then `kyc.verification.approved`. */
  private async approve(manager: EntityManager, account: InvestorAccount): Promise<void> {
    await this.lifecycle.transition(manager, account, 'approve_kyc', {
      kyc_status: 'approved',
      decided_at: new Date(),
      rejection_reasons: [],
    });
    await this.events.emit(manager, {
      tenantId: account.tenant_id,
      livemode: account.livemode,
      event: 'kyc.verification.approved',
      data: { ...(await this.view(account, manager)) },
    });
  }

  /** Back to SUBMITTED with kyc `rejected`, so the application can be corrected and resubmitted. */
  private async reject(
    manager: EntityManager,
    account: InvestmentAccountEntity,
    reasons: KycRejectionReason[],
  ): Promise<void> {
    await this.lifecycle.transition(manager, account, 'reject_kyc', {
      kyc_status: 'rejected',
      decided_at: new Date(),
      rejection_reasons: reasons,
    });
  }

  private async view(account: InvestorAccount, manager?: EntityManager): Promise<KycVerificationDto> {
    const missing = (await this.missingFor([account], manager)).get(account.id) ?? [];
    return {
      object: 'kyc_verification',
      livemode: account.livemode,
      investor_id: account.investor_id,
      account_id: account.id,
      status: account.kyc_status,
      account_status: account.status,
      missing,
      rejection_reasons: [...account.kyc_rejection_reasons],
      submitted_at: unixSeconds(account.kyc_submitted_at),
      decided_at: unixSeconds(account.kyc_decided_at),
    };
  }

  /** Missing requirements while the application is undecided or rejected; none once approved. */
  private async missingFor(
    accounts: InvestmentAccountEntity[],
    manager?: EntityManager,
  ): Promise<Map<string, string[]>> {
    const open: KycStatus[] = ['not_submitted', 'in_review', 'rejected'];
    const pending = accounts.filter((a) => open.includes(a.kyc_status) && a.status !== 'CLOSED');
    const ids = pending.map((a) => a.id);
    // In turn, not at once: a transaction's manager holds one connection, which runs one query at a time.
    const documents = await this.documents.documentsByAccount(ids, manager);
    const agreements = await this.accounts.agreementsFor(ids, manager);
    return new Map(
      pending.map((a) => [
        a.id,
        missingRequirements({
          country_of_tax_residence: a.identity.country_of_tax_residence,
          has_tax_id: a.tax_id !== null,
          documents: documents.get(a.id) ?? [],
          agreements: agreements.get(a.id) ?? [],
        }),
      ]),
    );
  }
}
