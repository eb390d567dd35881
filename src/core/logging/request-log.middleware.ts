import type { NextFunction, Request, Response } from 'express';
import pino, { type Logger as Pino } from 'pino';
import type { Principal } from 'src/core/auth/principal';
import { loggableUrl } from 'src/core/logging/safe-errors';

const INFO = 30;

/** Quotes, backslashes and anything outside printable ASCII: only such strings go through JSON.stringify. */
const NEEDS_ESCAPE = /["\\]|[^\x20-\x7e]/;

function jsonString(value: string): string {
  return NEEDS_ESCAPE.test(value) ? JSON.stringify(value) : `"${value}"`;
}

/**
 * One JSON line per request when it finishes: request id, tenant and mode, method, url, status,
 * duration. Headers and bodies are never serialized, so credentials cannot reach the log; query
 * strings keep their parameter names only (`?email=[redacted]`).
 * Deliberately no per-request child logger or async context: this runs on every request. The
 * line has pino's shape (level, time, base fields, msg) but is composed here and written to the
 * logger's stream directly: its fields are fixed, so pino's generic serialization (a stable
 * stringify of every nested object) would be the largest cost of logging it.
 */
export function requestLogMiddleware(logger: Pino) {
  const enabled = logger.isLevelEnabled('info');
  const stream = (logger as unknown as Record<symbol, { write(line: string): void }>)[pino.symbols.streamSym];
  const bindings = JSON.stringify(logger.bindings()).slice(1, -1);
  const base = bindings.length > 0 ? `,${bindings}` : '';
  return (req: Request & { id?: string; principal?: Principal }, res: Response, next: NextFunction): void => {
    if (!enabled || req.url.startsWith('/health')) {
      next();
      return;
    }
    const start = process.hrtime.bigint();
    res.once('finish', () => {
      const principal = req.principal;
      const tenant = principal
        ? `,"tenant_id":${jsonString(principal.tenantId)},"livemode":${principal.livemode}`
        : '';
      const responseTime = Number(process.hrtime.bigint() - start) / 1e6;
      stream.write(
        `{"level":${INFO},"time":${Date.now()}${base},"req":{"id":${jsonString(req.id ?? '')},"method":${jsonString(req.method)},"url":${jsonString(loggableUrl(req.originalUrl))}},"res":{"status":${res.statusCode}}${tenant},"responseTime":${responseTime},"msg":"request completed"}\n`,
      );
    });
    next();
  };
}
