import Decimal from 'decimal.js';
import { ServiceError } from 'src/core/errors/service-error';

/** 422 SVC-422-008 naming amount: a cash journal is above one of the tenant's journal limits. */
export class JournalLimitError extends ServiceError {
  private constructor(message: string) {
    super('SVC-422-008', message, 'amount');
  }

  /** The amount is above the limit per journal. */
  static perJournal(limit: Decimal, currency: string): JournalLimitError {
    return new JournalLimitError(
      `amount is above the tenant\u2019s limit of ${limit.toFixed()} ${currency} per journal.`,
    );
  }

  /** The amount would take what the account received by journal today above the limit per day. */
  static perAccountPerDay(
    accountId: string,
    before: Decimal,
    currency: string,
    limit: Decimal,
  ): JournalLimitError {
    return new JournalLimitError(
      `Account ${accountId} already received ${before.toFixed()} ${currency} by journal today; this one would ` +
        `take it above the daily limit of ${limit.toFixed()}.`,
    );
  }
}
