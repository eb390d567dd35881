import type { NextFunction, Request, Response } from 'express';
import type { Logger as Pino } from 'pino';
import type { Principal } from 'src/core/auth/principal';
import { loggableUrl } from 'src/core/logging/safe-errors';

/**
 * One JSON line per request when it finishes: request id, tenant and mode, method, url, status,
 * duration. Headers and bodies are never serialized, so credentials cannot reach the log; query
 * strings keep their parameter names only (`?email=[redacted]`).
 * Deliberately no per-request child logger or async context: this runs on every request.
 */
export function requestLogMiddleware(logger: Pino) {
  const enabled = logger.isLevelEnabled('info');
  return (req: Request & { id?: string; principal?: Principal }, res: Response, next: NextFunction): void => {
    if (!enabled || req.url.startsWith('/health')) {
      next();
      return;
    }
    const start = process.hrtime.bigint();
    res.once('finish', () => {
      const principal = req.principal;
      logger.info(
        {
          req: { id: req.id, method: req.method, url: loggableUrl(req.originalUrl) },
          res: { status: res.statusCode },
          ...(principal ? { tenant_id: principal.tenantId, livemode: principal.livemode } : {}),
          responseTime: Number(process.hrtime.bigint() - start) / 1e6,
        },
        'request completed',
      );
    });
    next();
  };
}
