import { ServiceError } from 'src/core/errors/service-error';

/**
 * Available cash (settled cash minus holds) is below what a hold or debit needs. Answered as
 * 422 SVC-422-002; `param` is the request field the caller names (e.g. `amount`).
 */
export class InsufficientFundsError extends ServiceError {
  constructor(currency: string, param?: string) {
    super(
      'SVC-422-002',
      `Insufficient funds: available ${currency} cash is below the amount requested. Read the balances, ` +
        'deposit, or send a smaller amount.',
      param,
    );
  }
}

/**
 * A journal or hold that breaks a ledger rule (unbalanced, bad amount, a hold already resolved).
 * It is a programming error of the calling module, never the partner's: it becomes a 500.
 */
export class LedgerRuleError extends Error {
  constructor(message: string) {
    super(`Ledger rule: ${message}`);
  }
}
