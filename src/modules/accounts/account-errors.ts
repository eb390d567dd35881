import { ServiceError } from 'src/core/errors/service-error';

/** 422 SVC-422-001 naming `param`: only ACTIVE accounts trade or move money. */
export class AccountNotActiveError extends ServiceError {
  constructor(accountId: string, status: string, param: string) {
    super(
      'SVC-422-001',
      `Account ${accountId} is ${status}; only ACTIVE accounts may trade or move money.`,
      param,
    );
  }
}

/** 409 SVC-409-001: a CLOSED account's profile, settings and agreements no longer change. */
export class AccountClosedError extends ServiceError {
  constructor(accountId: string) {
    super('SVC-409-001', `Account ${accountId} is CLOSED and can no longer change.`);
  }
}
