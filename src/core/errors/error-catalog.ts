/**
 * The one list of error codes the service answers with. The exception filter, the OpenAPI
 * error examples and the /docs/errors page are all generated from it.
 */
export type ErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'permission_error'
  | 'not_found_error'
  | 'conflict_error'
  | 'idempotency_error'
  | 'rate_limit_error'
  | 'api_error';

export interface ErrorCodeEntry {
  status: number;
  type: ErrorType;
  title: string;
  /** What happened and what to send instead. Shown on /docs/errors. */
  description: string;
  /** Default developer-facing message when the thrower gives none. */
  message: string;
}

export const ERROR_CATALOG = {
  'SVC-400-001': {
    status: 400,
    type: 'invalid_request_error',
    title: 'Invalid field',
    description: 'A field has a value the endpoint does not accept. `param` names the field path.',
    message: 'Invalid value.',
  },
  'SVC-400-002': {
    status: 400,
    type: 'invalid_request_error',
    title: 'Missing field',
    description: 'A required field is absent. `param` names the field path.',
    message: 'A required field is missing.',
  },
  'SVC-400-003': {
    status: 400,
    type: 'invalid_request_error',
    title: 'Malformed JSON',
    description: 'The request body is not valid JSON. Send a JSON object with Content-Type application/json.',
    message: 'The request body could not be parsed as JSON.',
  },
  'SVC-401-001': {
    status: 401,
    type: 'authentication_error',
    title: 'Authentication failed',
    description:
      'The Authorization header is missing, malformed, or names an unknown, revoked or expired key or token. ' +
      'Send HTTP Basic with your public key as username and secret as password, or a Bearer JWT.',
    message: 'Invalid or missing credentials.',
  },
  'SVC-403-001': {
    status: 403,
    type: 'permission_error',
    title: 'Not allowed for this key',
    description:
      'The route is tenant-level (webhooks, investor listing and creation, other investors’ keys) and the key ' +
      'is scoped to one investor. Use a tenant key.',
    message: 'This API key is scoped to one investor and cannot call tenant-level routes.',
  },
  'SVC-403-002': {
    status: 403,
    type: 'permission_error',
    title: 'Fixed income not enabled',
    description: 'Bond order routing needs the tenant flag fixedIncomeEnabled. Ask support to switch it on.',
    message: 'Fixed-income trading is not enabled for this tenant.',
  },
  'SVC-404-001': {
    status: 404,
    type: 'not_found_error',
    title: 'Not found',
    description:
      'No such route, or no such resource visible to this key. Resources of other tenants, other investors and ' +
      'the other mode (test/live) answer the same way.',
    message: 'Resource not found.',
  },
  'SVC-409-001': {
    status: 409,
    type: 'conflict_error',
    title: 'Illegal state change',
    description:
      'The resource is in a state that does not allow this action, such as canceling a filled order.',
    message: 'The resource is not in a state that allows this action.',
  },
  'SVC-409-002': {
    status: 409,
    type: 'idempotency_error',
    title: 'Idempotency key reused',
    description:
      'This Idempotency-Key was already used within 24 hours with different parameters. Use a new key for a new request.',
    message: 'Idempotency-Key was already used with different request parameters.',
  },
  'SVC-409-003': {
    status: 409,
    type: 'idempotency_error',
    title: 'Idempotent request in flight',
    description:
      'A request with the same Idempotency-Key is still being processed. Retry after it completes.',
    message: 'A request with this Idempotency-Key is still in progress.',
  },
  'SVC-413-001': {
    status: 413,
    type: 'invalid_request_error',
    title: 'Payload too large',
    description: 'The request body or uploaded file exceeds the size limit stated in the message.',
    message: 'The request body is too large.',
  },
  'SVC-415-001': {
    status: 415,
    type: 'invalid_request_error',
    title: 'Unsupported content type',
    description:
      'The body’s Content-Type or charset is not accepted here. Send JSON as `application/json` in UTF-8 ' +
      '(no charset, or `charset=utf-8`), and uploads as `multipart/form-data`.',
    message: 'Unsupported content type. Send application/json in UTF-8.',
  },
  'SVC-422-001': {
    status: 422,
    type: 'invalid_request_error',
    title: 'Account status does not allow it',
    description:
      'The request is well-formed but the account’s status does not allow it: only ACTIVE accounts trade or ' +
      'move money, and some settings need an agreement first. `param` names the field at fault.',
    message: 'The request was refused by a business rule.',
  },
  'SVC-422-002': {
    status: 422,
    type: 'invalid_request_error',
    title: 'Insufficient funds',
    description:
      'Available cash or buying power in the currency concerned is below what the request needs (a withdrawal ' +
      'above available cash, a buy above buying power). Read the balances, deposit, or send a smaller amount.',
    message: 'Insufficient funds.',
  },
  'SVC-422-003': {
    status: 422,
    type: 'invalid_request_error',
    title: 'Insufficient position',
    description:
      'A sell order asks for more than the account holds and has not already committed to other open sell ' +
      'orders. Cash accounts cannot sell short. Send a smaller quantity or cancel the other sell orders.',
    message: 'Insufficient position to sell.',
  },
  'SVC-422-004': {
    status: 422,
    type: 'invalid_request_error',
    title: 'Market closed for this time_in_force',
    description:
      'The order’s time_in_force cannot be accepted at this time of the market’s session (for example `opg` ' +
      'after the opening auction cut-off, or `ioc`/`fok` while the market is closed). Choose another ' +
      'time_in_force or send it while the market is open.',
    message: 'The market is closed for this time_in_force.',
  },
  'SVC-422-005': {
    status: 422,
    type: 'invalid_request_error',
    title: 'Bond quantity not a multiple of min_increment',
    description:
      'Bond order quantities are face value and must be a multiple of the bond’s `min_increment` (see the ' +
      'asset’s `bond` block). Round the quantity to a multiple of it.',
    message: 'Bond quantity must be a multiple of the bond’s min_increment.',
  },
  'SVC-422-006': {
    status: 422,
    type: 'invalid_request_error',
    title: 'Asset not tradable for this account',
    description:
      'The asset is not tradable, or its class is not among the account’s `enabled_assets` (equities under ' +
      '`us_equity`, `etf`, `bonds`, `crypto`). Enable the class on the investor or choose another asset.',
    message: 'The asset is not tradable for this account.',
  },
  'SVC-422-007': {
    status: 422,
    type: 'invalid_request_error',
    title: 'FX quote expired or used',
    description:
      'The FX quote named by `quote_id` expired (quotes last 30 seconds on the clock) or already paid for a ' +
      'conversion. Ask for a new quote with POST /v1/fx/quotes, or convert at the current rate without `quote_id`.',
    message: 'The FX quote has expired or was already used.',
  },
  'SVC-422-008': {
    status: 422,
    type: 'invalid_request_error',
    title: 'Journal limit exceeded',
    description:
      'A cash journal (JNLC) is above the tenant\u2019s limit per journal, or would take what one account receives ' +
      'by JNLC on one day of the clock above the limit per day (the firm account excepted). Send a smaller amount ' +
      'or ask support to raise the limits.',
    message: 'The journal exceeds the tenant\u2019s journal limits.',
  },
  'SVC-429-001': {
    status: 429,
    type: 'rate_limit_error',
    title: 'Too many requests',
    description:
      'The API key sent more requests than its rate limit allows, or already holds as many open event ' +
      'streams as allowed. Wait the seconds given in Retry-After (or close a stream).',
    message: 'Too many requests. Retry after the time given in the Retry-After header.',
  },
  'SVC-431-001': {
    status: 431,
    type: 'invalid_request_error',
    title: 'Request headers too large',
    description:
      'The request’s headers exceed the size the server accepts. Send fewer or shorter headers (cookies, ' +
      'custom headers).',
    message: 'Request header fields too large.',
  },
  'SVC-500-001': {
    status: 500,
    type: 'api_error',
    title: 'Internal error',
    description: 'Something went wrong on our side. The request id identifies it for support.',
    message: 'An internal error occurred.',
  },
  'SVC-503-001': {
    status: 503,
    type: 'api_error',
    title: 'Dependency unavailable',
    description: 'A dependency (database, queue) is unavailable. Retry with the same Idempotency-Key.',
    message: 'The service is temporarily unavailable.',
  },
} as const satisfies Record<string, ErrorCodeEntry>;

export type ErrorCode = keyof typeof ERROR_CATALOG;

export const ERROR_CODES = Object.keys(ERROR_CATALOG) as ErrorCode[];
