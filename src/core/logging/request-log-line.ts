import type { Request, Response } from 'express';
import pino, { type Logger as Pino } from 'pino';
import type { Principal } from 'src/core/auth/principal';
import { loggableUrl } from 'src/core/logging/safe-errors';

const INFO = 30;

/** Quotes, backslashes and anything outside printable ASCII: only such strings go through JSON.stringify. */
const NEEDS_ESCAPE = /["\\]|[^\x20-\x7e]/;

function jsonString(value: string): string {
  return NEEDS_ESCAPE.test(value) ? JSON.stringify(value) : `"${value}"`;
}

/** Writes a finished request's log line: the request, its response, its duration and the time. */
export type RequestLogLine = (
  req: Request & { id?: string; principal?: Principal },
  res: Response,
  durationMs: number,
  now: number,
) => void;

/**
 * One JSON line per request when it finishes: request id, tenant and mode, method, url, status,
 * duration. Headers and bodies are never serialized, so credentials cannot reach the log; query
 * strings keep their parameter names only (`?email=[redacted]`). Null when the logger's level
 * leaves out info lines.
 * The line has pino's shape (level, time, base fields, msg) but is composed here and written to
 * the logger's stream directly: its fields are fixed, so pino's generic serialization (a stable
 * stringify of every nested object) would be the largest cost of logging it. The entry
 * middleware (src/core/http/request-entry.ts) calls it from its one `finish` listener.
 */
export function requestLogLine(logger: Pino): RequestLogLine | null {
  if (!logger.isLevelEnabled('info')) {
    return null;
  }
  const stream = (logger as unknown as Record<symbol, { write(line: string): void }>)[pino.symbols.streamSym];
  const bindings = JSON.stringify(logger.bindings()).slice(1, -1);
  const base = bindings.length > 0 ? `,${bindings}` : '';
  return (req, res, durationMs, now) => {
    const principal = req.principal;
    const tenant = principal
      ? `,"tenant_id":${jsonString(principal.tenantId)},"livemode":${principal.livemode}`
      : '';
    stream.write(
      `{"level":${INFO},"time":${now}${base},"req":{"id":${jsonString(req.id ?? '')},"method":${jsonString(req.method)},"url":${jsonString(loggableUrl(req.originalUrl))}},"res":{"status":${res.statusCode}}${tenant},"responseTime":${durationMs},"msg":"request completed"}\n`,
    );
  };
}
