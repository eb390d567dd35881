/**
 * Query parameters whose values are kept: paging, filters over ids, enums, times and symbols.
 * Any other parameter (a name, an email, free text) keeps its name with the value redacted.
 */
const KEPT_QUERY_PARAMS = new Set([
  'limit',
  'offset',
  'starting_after',
  'ending_before',
  'created',
  'created_gte',
  'created_lt',
  'updated_since',
  'status',
  'method',
  'path',
  'event',
  'type',
  'symbol',
  'symbols',
  'asset_class',
  'exchange',
  'currency',
  'account_id',
  'investor_id',
  'endpoint',
  'page_token',
  'timeframe',
  'start',
  'end',
  'date',
]);

const MAX_QUERY_PARAMS = 50;
const MAX_VALUE_LENGTH = 200;

/** Parameter names with their value, or "[redacted]" when the parameter may carry personal data. */
export function loggableQuery(originalUrl: string): Record<string, string> | null {
  const q = originalUrl.indexOf('?');
  if (q === -1 || q === originalUrl.length - 1) {
    return null;
  }
  const out: Record<string, string> = {};
  let count = 0;
  for (const [name, value] of new URLSearchParams(originalUrl.slice(q + 1))) {
    if (++count > MAX_QUERY_PARAMS) {
      break;
    }
    const bracket = name.indexOf('[');
    const base = bracket === -1 ? name : name.slice(0, bracket);
    out[name.slice(0, MAX_VALUE_LENGTH)] = KEPT_QUERY_PARAMS.has(base)
      ? value.slice(0, MAX_VALUE_LENGTH)
      : '[redacted]';
  }
  return out;
}

/** The tenant, mode, key and investor scope a request log row is recorded under. */
export interface RequestLogScope {
  tenantId: string;
  livemode: boolean;
  keyId: string;
  investorId: string | null;
  method: 'basic' | 'jwt';
}

/**
 * A finished request as captured on the request path: only references and primitives (the row
 * is built at flush time). `scope` is the request's principal, or for credentials refused on a
 * known public key the principal that key would have had; null for a failure before
 * authentication, with the public key its credentials named (resolved at flush time).
 */
export interface CapturedRequest {
  id: string;
  scope: RequestLogScope | null;
  publicKey: string | null;
  method: string;
  originalUrl: string;
  status: number;
  durationMs: number;
  finishedAt: number;
  error: Record<string, unknown> | undefined;
  idempotencyKey: string | string[] | undefined;
  replayed: boolean;
  legacy: boolean;
}

function pathOf(url: string): string {
  const q = url.indexOf('?');
  return (q === -1 ? url : url.slice(0, q)).slice(0, 512);
}

/**
 * The row's columns in insert order (RequestLogRecorder's INSERT reads them by position): id,
 * tenant_id, livemode, api_key_id, investor_id, method, path, query, status, duration_ms,
 * error_code, error, idempotency_key, idempotent_replayed, legacy, created_at (epoch ms).
 */
export type RequestLogColumns = [
  string,
  string,
  boolean,
  string | null,
  string | null,
  string,
  string,
  Record<string, string> | null,
  number,
  number,
  string | null,
  Record<string, unknown> | null,
  string | null,
  boolean,
  boolean,
  number,
];

/**
 * NUL and UTF-16 surrogates without their other half: PostgreSQL's text, json and jsonb refuse
 * them (hostile input carries them in paths, query values and the error bodies echoing them).
 */
// eslint-disable-next-line no-control-regex -- NUL is what the pattern is for
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
// eslint-disable-next-line no-control-regex -- NUL is what the pattern is for
const MAY_BE_UNSTORABLE = /[\u0000\ud800-\udfff]/;

/** The text with each character PostgreSQL cannot store replaced by U+FFFD. */
export function storableText(text: string): string {
  return MAY_BE_UNSTORABLE.test(text) ? text.replace(UNSTORABLE, '\ufffd') : text;
}

/** A JSON value with storableText applied to every string in it, keys included. */
function storableJson(value: unknown): unknown {
  if (typeof value === 'string') {
    return storableText(value);
  }
  if (Array.isArray(value)) {
    return value.map(storableJson);
  }
  if (value !== null && typeof value === 'object') {
    const { toJSON } = value as { toJSON?: () => unknown };
    if (typeof toJSON === 'function') {
      return storableJson(toJSON.call(value));
    }
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      out[storableText(key)] = storableJson(inner);
    }
    return out;
  }
  return value;
}

function storableOrNull(text: string | null): string | null {
  return text === null ? null : storableText(text);
}

/**
 * The row's columns in insert order, as the request left them: nothing scanned or copied (see
 * requestLogBatchJson for the characters PostgreSQL refuses).
 */
export function requestLogColumns(captured: CapturedRequest, scope: RequestLogScope): RequestLogColumns {
  const error = captured.error ?? null;
  const rawKey = captured.idempotencyKey;
  const durationMs = Math.round(captured.durationMs);
  return [
    captured.id,
    scope.tenantId,
    scope.livemode,
    scope.method === 'basic' ? scope.keyId : null,
    scope.investorId,
    captured.method,
    pathOf(captured.originalUrl),
    loggableQuery(captured.originalUrl),
    captured.status,
    durationMs,
    error !== null && typeof error.code === 'string' ? error.code : null,
    error,
    typeof rawKey === 'string' && rawKey.length > 0 ? rawKey.slice(0, 255) : null,
    captured.replayed,
    captured.legacy,
    // Arrival time: the finish time less the duration.
    captured.finishedAt - durationMs,
  ];
}

/** The row with storableText applied to its free text: method, path, query, error, idempotency key. */
function makeStorable(row: RequestLogColumns): void {
  row[5] = storableText(row[5]);
  row[6] = storableText(row[6]);
  row[7] = storableJson(row[7]) as Record<string, string> | null;
  const error = storableJson(row[11]) as Record<string, unknown> | null;
  row[10] = error !== null && typeof error.code === 'string' ? error.code : null;
  row[11] = error;
  row[12] = storableOrNull(row[12]);
}

/**
 * NUL or a UTF-16 surrogate as JSON.stringify writes them: always as an escape (a surrogate
 * with its other half is written as the character itself). An escaped backslash followed by
 * "u0000" matches too, which costs only the second pass below.
 */
const ESCAPED_UNSTORABLE = /\\u(?:0000|d[89a-f])/;

/**
 * The rows as one JSON array of positional arrays. One scan of the text finds whether any
 * string in the batch holds a character PostgreSQL refuses (rare: hostile paths, query values
 * and the error bodies echoing them); only then are the rows' free-text columns made storable
 * and the text written again, so ordinary batches pay for no per-field scan or copy.
 */
export function requestLogBatchJson(rows: RequestLogColumns[]): string {
  const json = JSON.stringify(rows);
  if (!ESCAPED_UNSTORABLE.test(json)) {
    return json;
  }
  for (const row of rows) {
    makeStorable(row);
  }
  return JSON.stringify(rows);
}
