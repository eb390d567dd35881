import { ServiceError } from 'src/core/errors/service-error';
import { ACCOUNT_STATUSES, AccountStatus } from 'src/modules/accounts/entities/account-types';
import {
  ACCOUNT_TRANSITIONS,
  AccountAction,
  cryptoStatusFor,
  nextStatus,
} from 'src/modules/accounts/account-transitions';

describe('account lifecycle', () => {
  const legal: Array<[AccountStatus, AccountAction, AccountStatus]> = [
    ['SUBMITTED', 'submit_kyc', 'PENDING_APPROVAL'],
    ['PENDING_APPROVAL', 'approve_kyc', 'ACTIVE'],
    ['PENDING_APPROVAL', 'reject_kyc', 'SUBMITTED'],
    ['SUBMITTED', 'reject_kyc', 'SUBMITTED'],
    ['ACTIVE', 'suspend', 'SUSPENDED'],
    ['SUSPENDED', 'reactivate', 'ACTIVE'],
    ['SUBMITTED', 'close', 'CLOSED'],
    ['PENDING_APPROVAL', 'close', 'CLOSED'],
    ['ACTIVE', 'close', 'CLOSED'],
    ['SUSPENDED', 'close', 'CLOSED'],
  ];

  it.each(legal)('%s --%s--> %s', (from, action, to) => {
    expect(nextStatus(from, action)).toBe(to);
  });

  it('refuses every other move with 409 SVC-409-001', () => {
    const actions = Object.keys(ACCOUNT_TRANSITIONS) as AccountAction[];
    let refused = 0;
    for (const from of ACCOUNT_STATUSES) {
      for (const action of actions) {
        if (legal.some(([f, a]) => f === from && a === action)) {
          continue;
        }
        let error: unknown;
        try {
          nextStatus(from, action);
        } catch (err) {
          error = err;
        }
        expect(error).toBeInstanceOf(ServiceError);
        expect((error as ServiceError).code).toBe('SVC-409-001');
        expect((error as ServiceError).message).toContain(from);
        refused++;
      }
    }
    expect(refused).toBe(ACCOUNT_STATUSES.length * actions.length - legal.length);
  });

  it('crypto status follows the account only when crypto is enabled', () => {
    expect(cryptoStatusFor('ACTIVE', ['us_equity'])).toBe('INACTIVE');
    expect(cryptoStatusFor('ACTIVE', ['us_equity', 'crypto'])).toBe('ACTIVE');
    expect(cryptoStatusFor('SUSPENDED', ['crypto'])).toBe('SUSPENDED');
    expect(cryptoStatusFor('PENDING_APPROVAL', ['crypto'])).toBe('INACTIVE');
    expect(cryptoStatusFor('CLOSED', ['crypto'])).toBe('INACTIVE');
  });
});
