import type { AccountFilter } from 'src/modules/accounts/accounts.service';
import type { InvestmentAccountEntity } from 'src/modules/accounts/entities/investment-account.entity';
import { assertUnreachable } from 'src/core/errors/assert-unreachable';

/** Lower-case investor statuses (envelope style), mirroring the account plus `rejected`. */
export const INVESTOR_STATUSES = [
  'submitted',
  'pending_approval',
  'active',
  'rejected',
  'suspended',
  'closed',
] as const;
export type InvestorStatus = (typeof INVESTOR_STATUSES)[number];

export function investorStatus(
  account: Pick<InvestmentAccountEntity, 'status' | 'kyc_status'>,
): InvestorStatus {
  if (account.status === 'SUBMITTED' && account.kyc_status === 'rejected') {
    return 'rejected';
  }
  return account.status.toLowerCase() as InvestorStatus;
}

/** The account filter that selects investors in `status`. */
export function accountFilterFor(status: InvestorStatus): AccountFilter {
  switch (status) {
    case 'rejected':
      return { status: 'SUBMITTED', kycStatus: 'rejected' };
    case 'submitted':
      return { status: 'SUBMITTED', notKycStatus: 'rejected' };
    case 'pending_approval':
      return { status: 'PENDING_APPROVAL' };
    case 'active':
      return { status: 'ACTIVE' };
    case 'suspended':
      return { status: 'SUSPENDED' };
    case 'closed':
      return { status: 'CLOSED' };
    default:
      return assertUnreachable(status, 'investor status');
  }
}
