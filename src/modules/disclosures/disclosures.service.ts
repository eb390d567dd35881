import { Injectable } from '@nestjs/common';
import type { Principal } from 'src/core/auth/principal';
import { ServiceError } from 'src/core/errors/service-error';
import { ListEnvelope, toList } from 'src/core/http/envelope';
import type { IdempotentRequest } from 'src/core/idempotency/idempotent-request';
import { IdempotentTransaction } from 'src/core/idempotency/idempotent-transaction';
import { AccountLifecycleService } from 'src/modules/accounts/account-lifecycle.service';
import { AccountsService } from 'src/modules/accounts/accounts.service';
import type { AgreementAcceptance } from 'src/modules/accounts/entities/account-types';
import type { InvestorAccount } from 'src/modules/accounts/accounts.service';
import { currentDisclosure, DISCLOSURES } from 'src/modules/disclosures/disclosure-catalog';
import type {
  AgreementAcceptanceDto,
  AcceptAgreementsDto,
} from 'src/modules/disclosures/dto/agreement-acceptance.dto';
import type { AgreementDto, DisclosureDto } from 'src/modules/disclosures/dto/disclosure.dto';

/** Clock skew tolerated on a client-supplied signed_at. */
const FUTURE_SKEW_MS = 5 * 60 * 1000;

/** The regulatory documents and the investors' acceptances of them. */
@Injectable()
export class DisclosuresService {
  constructor(
    private readonly transactions: IdempotentTransaction,
    private readonly accounts: AccountsService,
    private readonly lifecycle: AccountLifecycleService,
  ) {}

  list(principal: Principal): DisclosureDto[] {
    return DISCLOSURES.map((d) => ({
      object: 'disclosure',
      livemode: principal.livemode,
      agreement: d.agreement,
      title: d.title,
      description: d.description,
      revision: d.revision,
      effective_date: d.effective_date,
      required_for: [...d.required_for],
    }));
  }

  /**
   * Checks acceptances against the catalog: the current revision (400-001 on `<param>[i].revision`
   * otherwise), each agreement once, signed_at not in the future.
   */
  validateAcceptances(items: AgreementAcceptanceDto[] | undefined, param: string): AgreementAcceptance[] {
    const seen = new Set<string>();
    const now = Date.now();
    return (items ?? []).map((item, i) => {
      const at = `${param}[${i}]`;
      const current = currentDisclosure(item.agreement);
      if (!current) {
        throw ServiceError.invalid(`${at}.agreement`, `Unknown agreement '${item.agreement}'.`);
      }
      if (seen.has(item.agreement)) {
        throw ServiceError.invalid(`${at}.agreement`, `${item.agreement} is listed twice.`);
      }
      seen.add(item.agreement);
      if (item.revision !== current.revision) {
        throw ServiceError.invalid(
          `${at}.revision`,
          `Revision '${item.revision}' of ${item.agreement} is not the current one ('${current.revision}').`,
        );
      }
      const signedAt = item.signed_at ? new Date(item.signed_at) : new Date(now);
      if (signedAt.getTime() > now + FUTURE_SKEW_MS) {
        throw ServiceError.invalid(`${at}.signed_at`, `${at}.signed_at is in the future.`);
      }
      return {
        agreement: item.agreement,
        revision: item.revision,
        signed_at: signedAt,
        ip_address: item.ip_address,
      };
    });
  }

  /** POST /investors/{investor_id}/agreements: records them and lists all the account's agreements. */
  async accept(
    principal: Principal,
    investorId: string,
    body: AcceptAgreementsDto,
    url: string,
    idem: IdempotentRequest | undefined,
  ): Promise<ListEnvelope<AgreementDto>> {
    const acceptances = this.validateAcceptances(body.agreements, 'agreements');
    return this.transactions.run(idem, async (manager) => {
      const account = await this.accounts.findInvestorAccount(principal, investorId, manager, { lock: true });
      await this.lifecycle.recordAgreements(manager, account, acceptances);
      return toList(url, await this.accepted(account, manager), false);
    });
  }

  async listAccepted(principal: Principal, investorId: string): Promise<AgreementDto[]> {
    return this.accepted(await this.accounts.findInvestorAccount(principal, investorId));
  }

  private async accepted(
    account: InvestorAccount,
    manager?: Parameters<AccountsService['agreementsFor']>[1],
  ): Promise<AgreementDto[]> {
    const rows = (await this.accounts.agreementsFor([account.id], manager)).get(account.id) ?? [];
    return rows.map((row) => ({
      object: 'agreement',
      livemode: account.livemode,
      investor_id: account.investor_id,
      account_id: account.id,
      agreement: row.agreement,
      revision: row.revision,
      signed_at: row.signed_at.toISOString(),
      ip_address: row.ip_address,
    }));
  }
}
