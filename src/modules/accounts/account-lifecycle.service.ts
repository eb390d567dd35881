import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { Principal } from 'src/core/auth/principal';
import type { EventName } from 'src/core/events/event-types';
import { EventsService } from 'src/core/events/events.service';
import { ServiceError } from 'src/core/errors/service-error';
import type { IdempotentRequest } from 'src/core/idempotency/idempotent-request';
import { IdempotentTransaction } from 'src/core/idempotency/idempotent-transaction';
import { newUuid } from 'src/core/ids/ids';
import { AccountClosing } from 'src/modules/accounts/account-closing';
import { AccountOpenings } from 'src/modules/accounts/account-openings';
import { AccountSuspension } from 'src/modules/accounts/account-suspension';
import { AccountClosedError } from 'src/modules/accounts/account-errors';
import { AccountRecord } from 'src/modules/accounts/account-record';
import { assertSettingsAllowed, newAccountNumber } from 'src/modules/accounts/account-settings';
import { AccountAction, cryptoStatusFor, nextStatus } from 'src/modules/accounts/account-transitions';
import { AccountsRepository } from 'src/modules/accounts/accounts.repository';
import { AccountsService } from 'src/modules/accounts/accounts.service';
import { sameValue } from 'src/modules/accounts/same-value';
import { taxIdLast4 } from 'src/modules/accounts/tax-id-last4';
import type {
  AccountStatus,
  AgreementAcceptance,
  EnabledAsset,
  HolderAddress,
  HolderDisclosures,
  HolderIdentity,
  KycStatus,
  TradingType,
} from 'src/modules/accounts/entities/account-types';
import { InvestmentAccountEntity } from 'src/modules/accounts/entities/investment-account.entity';

export interface AccountProfile {
  email_address: string;
  phone_number: string;
  address: HolderAddress;
  identity: HolderIdentity;
  tax_id: string | null;
  disclosures: HolderDisclosures;
  currency: string;
  trading_type: TradingType;
  enabled_assets: EnabledAsset[];
}

export interface OpenAccountInput extends AccountProfile {
  tenantId: string;
  livemode: boolean;
  investorId: string;
  agreements: AgreementAcceptance[];
}

/** KYC bookkeeping that travels with a status transition. */
export interface KycChange {
  kyc_status: KycStatus;
  submitted_at?: Date;
  decided_at?: Date | null;
  rejection_reasons?: string[];
}

/** Profile fields that may change only before the application is submitted for KYC. */
const LOCKED_AFTER_SUBMISSION: ReadonlyArray<keyof AccountProfile> = [
  'identity',
  'tax_id',
  'disclosures',
  'currency',
];

/**
 * Every change of an investment account, each inside the caller's transaction with its event
 * (`account.created`, `account.updated`) written to the outbox in that same transaction.
 */
@Injectable()
export class AccountLifecycleService {
  constructor(
    private readonly transactions: IdempotentTransaction,
    private readonly accounts: AccountsService,
    private readonly repository: AccountsRepository,
    private readonly events: EventsService,
    private readonly openings: AccountOpenings,
    private readonly closing: AccountClosing,
    private readonly suspension: AccountSuspension,
  ) {}

  async open(manager: EntityManager, input: OpenAccountInput): Promise<InvestmentAccountEntity> {
    const { tenantId, livemode, investorId, agreements, ...profile } = input;
    assertSettingsAllowed(profile, new Set(agreements.map((a) => a.agreement)));
    const id = newUuid();
    for (let attempt = 0; ; attempt++) {
      const inserted = await this.repository.insertUnlessNumberTaken(manager, {
        ...profile,
        id,
        tenant_id: tenantId,
        livemode,
        investor_id: investorId,
        tax_id_last4: taxIdLast4(profile.tax_id),
        account_number: newAccountNumber(),
        status: 'SUBMITTED',
        crypto_status: cryptoStatusFor('SUBMITTED', profile.enabled_assets),
        trading_configurations: null,
      });
      if (inserted) {
        break;
      }
      if (attempt >= 4) {
        throw new Error('Could not allocate a unique account number.');
      }
    }
    await this.insertAgreements(manager, id, agreements);
    const account = await this.repository.byId(manager, id);
    await this.openings.run(manager, account);
    await this.emit(manager, account, 'account.created', {});
    return account;
  }

  /**
   * Applies profile and settings changes to a locked account. Identity, tax id, disclosures and
   * currency are frozen once KYC is submitted (409); a CLOSED account changes no more (409).
   * Emits `account.updated` naming the changed fields, when any changed.
   */
  async updateProfile(
    manager: EntityManager,
    account: InvestmentAccountEntity,
    change: Partial<AccountProfile>,
    alsoChanged: string[] = [],
  ): Promise<InvestmentAccountEntity> {
    const changed = (Object.keys(change) as Array<keyof AccountProfile>).filter(
      (key) => change[key] !== undefined && !sameValue(change[key], account[key]),
    );
    if (changed.length + alsoChanged.length === 0) {
      return account;
    }
    if (account.status === 'CLOSED') {
      throw new AccountClosedError(account.id);
    }
    const frozen = changed.filter((key) => LOCKED_AFTER_SUBMISSION.includes(key));
    if (frozen.length > 0 && account.status !== 'SUBMITTED') {
      throw ServiceError.conflict(
        `${frozen.join(', ')} cannot change once KYC is submitted (account status ${account.status}).`,
      );
    }
    Object.assign(account, Object.fromEntries(changed.map((key) => [key, change[key]])));
    account.tax_id_last4 = taxIdLast4(account.tax_id);
    if (changed.includes('trading_type') || changed.includes('enabled_assets')) {
      const agreements = await this.accounts.agreementsFor([account.id], manager);
      assertSettingsAllowed(account, new Set(agreements.get(account.id)?.map((a) => a.agreement)));
    }
    account.crypto_status = cryptoStatusFor(account.status, account.enabled_assets);
    account.updated_at = new Date();
    await this.repository.save(manager, account);
    await this.emit(manager, account, 'account.updated', { changed: [...changed, ...alsoChanged] });
    return account;
  }

  /** Moves a locked account through its lifecycle (409 when illegal) and emits `account.updated`. */
  async transition(
    manager: EntityManager,
    account: InvestmentAccountEntity,
    action: AccountAction,
    kyc?: KycChange,
  ): Promise<InvestmentAccountEntity> {
    const previous: AccountStatus = account.status;
    account.status = nextStatus(previous, action);
    account.crypto_status = cryptoStatusFor(account.status, account.enabled_assets);
    if (kyc) {
      account.kyc_status = kyc.kyc_status;
      account.kyc_submitted_at = kyc.submitted_at ?? account.kyc_submitted_at;
      account.kyc_decided_at = kyc.decided_at !== undefined ? kyc.decided_at : account.kyc_decided_at;
      account.kyc_rejection_reasons = kyc.rejection_reasons ?? account.kyc_rejection_reasons;
    }
    account.updated_at = new Date();
    await this.repository.save(manager, account);
    const changed = [...(previous !== account.status ? ['status'] : []), ...(kyc ? ['kyc_status'] : [])];
    await this.emit(manager, account, 'account.updated', { previous_status: previous, changed });
    return account;
  }

  /** Records accepted agreements (a revision accepted again is kept once); emits when any is new. */
  async recordAgreements(
    manager: EntityManager,
    account: InvestmentAccountEntity,
    agreements: AgreementAcceptance[],
  ): Promise<number> {
    if (account.status === 'CLOSED') {
      throw new AccountClosedError(account.id);
    }
    const added = await this.insertAgreements(manager, account.id, agreements);
    if (added > 0) {
      account.updated_at = new Date();
      await this.repository.touch(manager, account.id, account.updated_at);
      await this.emit(manager, account, 'account.updated', { changed: ['agreements'] });
    }
    return added;
  }

  /** POST /accounts/{account_id}/actions/{suspend|reactivate|close}. */
  async applyAction(
    principal: Principal,
    accountId: string,
    action: Extract<AccountAction, 'suspend' | 'reactivate' | 'close'>,
    idem: IdempotentRequest | undefined,
  ): Promise<AccountRecord> {
    return this.transactions.run(idem, async (manager) => {
      const account = await this.accounts.findAccountForPrincipal(principal, accountId, manager, {
        lock: true,
      });
      if (account.account_type === 'firm') {
        // The firm account lives as long as its tenant: it is not an investor's account to act on.
        throw ServiceError.notFound('account', accountId);
      }
      if (action === 'close' && account.status !== 'CLOSED') {
        const outstanding = await this.closing.outstanding(account, manager);
        if (outstanding.length > 0) {
          throw ServiceError.conflict(
            `Account ${account.id} still holds ${outstanding.join(', ')}; a CLOSED account moves no money. ` +
              'Cancel its open orders, sell its positions, let its transfers finish and withdraw its cash, then close it.',
          );
        }
      }
      await this.transition(manager, account, action);
      if (action === 'suspend') {
        await this.suspension.run(manager, account);
      }
      return this.accounts.toRecord(account, manager);
    });
  }

  private async insertAgreements(
    manager: EntityManager,
    accountId: string,
    agreements: AgreementAcceptance[],
  ): Promise<number> {
    if (agreements.length === 0) {
      return 0;
    }
    return this.repository.insertAgreements(
      manager,
      agreements.map((a) => ({
        id: newUuid(),
        account_id: accountId,
        agreement: a.agreement,
        revision: a.revision,
        signed_at: a.signed_at,
        ip_address: a.ip_address,
      })),
    );
  }

  /**
   * Event data: the account-style record plus `investor_id`, `kyc_status`, the fields that
   * `changed` and, on status moves, `previous_status`.
   */
  private async emit(
    manager: EntityManager,
    account: InvestmentAccountEntity,
    event: EventName,
    extra: { previous_status?: AccountStatus; changed?: string[] },
  ): Promise<void> {
    const record = await this.accounts.toRecord(account, manager);
    await this.events.emit(manager, {
      tenantId: account.tenant_id,
      livemode: account.livemode,
      event,
      data: {
        ...record,
        investor_id: account.investor_id,
        kyc_status: account.kyc_status,
        ...(extra.changed ? { changed: extra.changed } : {}),
        ...(extra.previous_status && extra.previous_status !== account.status
          ? { previous_status: extra.previous_status }
          : {}),
      },
    });
  }
}
