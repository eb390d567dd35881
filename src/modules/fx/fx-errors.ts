import { ServiceError } from 'src/core/errors/service-error';

/** 404 SVC-404-001 naming quote_id: no fx_quote of this id is visible to the key. */
export class FxQuoteNotFoundError extends ServiceError {
  constructor(quoteId: string) {
    super('SVC-404-001', `No such fx_quote: '${quoteId}'.`, 'quote_id');
  }
}

/** 422 SVC-422-007 naming quote_id: the fx_quote has expired or was already used by a conversion. */
export class FxQuoteUnusableError extends ServiceError {
  constructor(quoteId: string) {
    super(
      'SVC-422-007',
      `Quote ${quoteId} has expired or was already used; ask for a new quote.`,
      'quote_id',
    );
  }
}
