import { stdSerializers } from 'pino';

/** What a log line keeps of a failed database query: never its parameter values. */
export interface LoggedQueryError {
  type: string;
  message: string;
  /** SQLSTATE, for example 23505 (unique violation) or 22021 (invalid byte sequence). */
  code?: string;
  constraint?: string;
  table?: string;
  column?: string;
  /** The query text with its placeholders ($1, $2...), never the values bound to them. */
  query?: string;
  stack?: string;
}

/** Fields of PostgreSQL errors that name schema objects, never data. */
const IDENTIFIER_FIELDS = ['constraint', 'table', 'column', 'schema', 'dataType'] as const;

/**
 * Fields that carry data: TypeORM's bound `parameters`, PostgreSQL's `detail` ("Failing row
 * contains (...)", "Key (email)=(...)"), `where` and `internalQuery` (PL/pgSQL context), the
 * driver's own copy of all of them, and HTTP clients' request or response bodies and headers.
 */
const DATA_FIELDS = [
  'parameters',
  'driverError',
  'detail',
  'where',
  'internalQuery',
  'hint',
  'body',
  'config',
  'request',
  'response',
  'headers',
];

type DatabaseError = Error & Partial<Record<(typeof IDENTIFIER_FIELDS)[number] | 'code' | 'query', string>>;

function isDatabaseError(err: unknown): err is DatabaseError {
  if (!(err instanceof Error)) {
    return false;
  }
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && ('query' in err || 'routine' in err);
}

/**
 * A PostgreSQL message quotes values as well as names (`invalid input syntax for type uuid:
 * "..."`, `value "..." is out of range`): every quoted part that is not one of the error's own
 * identifier fields is replaced.
 */
export function redactDatabaseMessage(
  message: string,
  identifiers: ReadonlyArray<string | undefined>,
): string {
  const names = new Set(identifiers.filter((v): v is string => typeof v === 'string'));
  return message.replace(/"((?:[^"\\]|\\.)*)"/g, (quoted, inner: string) =>
    names.has(inner) ? quoted : '"[redacted]"',
  );
}

/** A failed query as logged: SQLSTATE, constraint, table, column and query text; no values. */
export function loggableQueryError(err: DatabaseError, query = err.query): LoggedQueryError {
  const identifiers = IDENTIFIER_FIELDS.map((field) => err[field]);
  const message = redactDatabaseMessage(err.message, identifiers);
  const stack = err.stack?.split('\n');
  return {
    type: err.constructor?.name ?? 'Error',
    message,
    ...(err.code ? { code: err.code } : {}),
    ...(err.constraint ? { constraint: err.constraint } : {}),
    ...(err.table ? { table: err.table } : {}),
    ...(err.column ? { column: err.column } : {}),
    ...(typeof query === 'string' ? { query } : {}),
    // The stack's first line repeats the message: keep only the frames.
    ...(stack
      ? { stack: [`${err.name}: ${message}`, ...stack.filter((l) => /^\s+at /.test(l))].join('\n') }
      : {}),
  };
}

/** One line for a log message: a database error's SQLSTATE and redacted message, or the message. */
export function safeErrorMessage(err: unknown): string {
  if (isDatabaseError(err)) {
    const logged = loggableQueryError(err);
    return `${logged.code}: ${logged.message}`;
  }
  return err instanceof Error ? err.message : String(err);
}

/**
 * pino's `err` serializer for every log line: database errors lose their bound values and the
 * row data PostgreSQL reports; any error loses fields known to carry request or row data.
 */
export function safeErrorSerializer(err: unknown): unknown {
  if (isDatabaseError(err)) {
    return loggableQueryError(err);
  }
  if (!(err instanceof Error)) {
    return err;
  }
  const serialized = stdSerializers.err(err) as unknown as Record<string, unknown>;
  for (const field of DATA_FIELDS) {
    delete serialized[field];
  }
  if (serialized.cause && typeof serialized.cause === 'object') {
    serialized.cause = safeErrorSerializer((err as { cause?: unknown }).cause);
  }
  return serialized;
}

/**
 * The URL as logged: path and the names of query parameters, never their values
 * (`/v1/investors?email=[redacted]`): a query string can carry an e-mail address or a name.
 */
export function loggableUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) {
    return url;
  }
  const names = url
    .slice(q + 1)
    .split('&')
    .filter((pair) => pair.length > 0)
    .map((pair) => {
      const eq = pair.indexOf('=');
      return `${eq === -1 ? pair : pair.slice(0, eq)}=[redacted]`;
    });
  return `${url.slice(0, q)}?${names.join('&')}`;
}
