/**
 * SQLSTATEs of a database that cannot take or keep this connection: too many connections (53300,
 * the server's max_connections or a role's or database's limit), shutting down or starting up
 * (57P01-57P03), and class 08, connection exceptions. Retrying soon may well succeed.
 */
const UNAVAILABLE_SQLSTATES = new Set(['53300', '57P01', '57P02', '57P03']);

/** The socket to the server could not be opened or was cut (node's error codes). */
const SOCKET_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH']);

/** What node-postgres throws when a connection ends or cannot be had in time (no code of its own). */
const DRIVER_MESSAGES = [
  'Connection terminated unexpectedly',
  'Connection terminated due to connection timeout',
  'timeout exceeded when trying to connect',
];

/**
 * Whether `err` says the database could not be reached or refused the connection, rather than
 * that a statement failed: such a request answers 503 with Retry-After, not 500. TypeORM's
 * QueryFailedError carries the driver's `code`; a failed connect rejects with the driver's error.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) {
    return false;
  }
  const { code, message } = err as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (UNAVAILABLE_SQLSTATES.has(code) || SOCKET_ERRORS.has(code) || /^08[0-9A-Z]{3}$/.test(code)) {
      return true;
    }
  }
  return typeof message === 'string' && DRIVER_MESSAGES.some((m) => message.startsWith(m));
}
