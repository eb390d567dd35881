import { ServiceError } from 'src/core/errors/service-error';
import type { AccountStatus, CryptoStatus, EnabledAsset } from 'src/modules/accounts/entities/account-types';

/** What moves an account from one status to another. */
export type AccountAction = 'submit_kyc' | 'approve_kyc' | 'reject_kyc' | 'suspend' | 'reactivate' | 'close';

/**
 * The account lifecycle. KYC submission takes SUBMITTED to PENDING_APPROVAL; approval makes it
 * ACTIVE; rejection returns it to SUBMITTED so the application can be corrected and submitted
 * again. An ACTIVE account can be suspended and reactivated; any account not yet CLOSED can be
 * closed, and CLOSED is final.
 */
export const ACCOUNT_TRANSITIONS: Record<
  AccountAction,
  { from: readonly AccountStatus[]; to: AccountStatus }
> = {
  submit_kyc: { from: ['SUBMITTED'], to: 'PENDING_APPROVAL' },
  approve_kyc: { from: ['PENDING_APPROVAL'], to: 'ACTIVE' },
  reject_kyc: { from: ['SUBMITTED', 'PENDING_APPROVAL'], to: 'SUBMITTED' },
  suspend: { from: ['ACTIVE'], to: 'SUSPENDED' },
  reactivate: { from: ['SUSPENDED'], to: 'ACTIVE' },
  close: { from: ['SUBMITTED', 'PENDING_APPROVAL', 'ACTIVE', 'SUSPENDED'], to: 'CLOSED' },
};

const ACTION_WORDS: Record<AccountAction, string> = {
  submit_kyc: 'submit KYC for',
  approve_kyc: 'approve KYC of',
  reject_kyc: 'reject KYC of',
  suspend: 'suspend',
  reactivate: 'reactivate',
  close: 'close',
};

/** The status `action` leads to from `current`, or 409 SVC-409-001 when the move is illegal. */
export function nextStatus(current: AccountStatus, action: AccountAction): AccountStatus {
  const transition = ACCOUNT_TRANSITIONS[action];
  if (!transition.from.includes(current)) {
    throw ServiceError.conflict(
      `Cannot ${ACTION_WORDS[action]} an account in status ${current}; allowed from ${transition.from.join(', ')}.`,
    );
  }
  return transition.to;
}

/** Crypto trading follows the account: ACTIVE or SUSPENDED with it when crypto is enabled. */
export function cryptoStatusFor(status: AccountStatus, enabledAssets: readonly EnabledAsset[]): CryptoStatus {
  if (!enabledAssets.includes('crypto')) {
    return 'INACTIVE';
  }
  if (status === 'ACTIVE') {
    return 'ACTIVE';
  }
  return status === 'SUSPENDED' ? 'SUSPENDED' : 'INACTIVE';
}
