import { HttpException, Injectable, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AppConfig } from 'src/core/config/app-config.service';
import { isDatabaseUnavailable } from 'src/core/database/connection-errors';
import { ERROR_CATALOG, ErrorCode } from 'src/core/errors/error-catalog';
import { ProductNotEnabledError, ServiceError } from 'src/core/errors/service-error';
import { IdempotentReplay } from 'src/core/idempotency/idempotent-replay';
import { loggableUrl } from 'src/core/logging/safe-errors';

export interface ErrorEnvelope {
  error: {
    type: string;
    code: ErrorCode;
    message: string;
    param?: string;
    doc_url: string;
    request_log_url: string;
  };
}

/** The error body a request answered with, kept on the request for its request log row. */
export type RequestWithErrorBody = Request & { errorBody?: Record<string, unknown> };

const STATUS_TO_CODE: Record<number, ErrorCode> = {
  400: 'SVC-400-001',
  401: 'SVC-401-001',
  403: 'SVC-403-001',
  404: 'SVC-404-001',
  409: 'SVC-409-001',
  413: 'SVC-413-001',
  422: 'SVC-422-001',
  429: 'SVC-429-001',
  503: 'SVC-503-001',
};

/** Retry-After of a 503 for a database that refused or lost the connection. */
const DATABASE_RETRY_AFTER_SECONDS = 1;

/** Turns any thrown value into the SVC envelope (or the legacy add-on body) and writes it. */
@Injectable()
export class ErrorRenderer {
  private readonly logger = new Logger('Errors');
  private readonly publicUrl: string;
  private readonly dashboardUrl: string;

  constructor(config: AppConfig) {
    this.publicUrl = config.get('PUBLIC_URL').replace(/\/$/, '');
    this.dashboardUrl = config.get('DASHBOARD_URL').replace(/\/$/, '');
  }

  envelope(code: ErrorCode, message: string, requestId: string, param?: string): ErrorEnvelope {
    const entry = ERROR_CATALOG[code];
    return {
      error: {
        type: entry.type,
        code,
        message,
        ...(param !== undefined ? { param } : {}),
        doc_url: `${this.publicUrl}/docs/errors#${code}`,
        request_log_url: `${this.dashboardUrl}/logs/${requestId}`,
      },
    };
  }

  render(err: unknown, req: Request, res: Response): void {
    if (res.headersSent) {
      return;
    }
    const requestId = (req as { id?: string }).id ?? 'req_unknown';
    if (err instanceof IdempotentReplay) {
      res.setHeader('Idempotent-Replayed', 'true');
      res.status(err.status).json(err.body);
      return;
    }
    if (err instanceof ProductNotEnabledError) {
      const body = { status: 'error', code: 'PRODUCT_NOT_ENABLED', message: err.message };
      (req as RequestWithErrorBody).errorBody = body;
      res.status(403).json(body);
      return;
    }
    const { code, message, param, headers } = this.classify(err, req);
    if (ERROR_CATALOG[code].status >= 500) {
      // The `err` serializer drops bound query parameters and row data; the url keeps no query values.
      this.logger.error(
        { err, requestId },
        `Unhandled error on ${req.method} ${loggableUrl(req.originalUrl)}`,
      );
    }
    if (headers) {
      res.set(headers);
    }
    const envelope = this.envelope(code, message, requestId, param);
    (req as RequestWithErrorBody).errorBody = envelope.error as unknown as Record<string, unknown>;
    res.status(ERROR_CATALOG[code].status).json(envelope);
  }

  private classify(
    err: unknown,
    req: Request,
  ): { code: ErrorCode; message: string; param?: string; headers?: Record<string, string> } {
    if (err instanceof ServiceError) {
      return { code: err.code, message: err.message, param: err.param, headers: err.headers };
    }
    const bodyParserType = (err as { type?: string } | null)?.type;
    if (bodyParserType === 'entity.parse.failed') {
      return { code: 'SVC-400-003', message: ERROR_CATALOG['SVC-400-003'].message };
    }
    if (bodyParserType === 'entity.too.large') {
      return { code: 'SVC-413-001', message: 'The request body exceeds the 1 MB limit.' };
    }
    if (bodyParserType === 'charset.unsupported' || bodyParserType === 'encoding.unsupported') {
      const header = bodyParserType === 'charset.unsupported' ? 'Content-Type' : 'Content-Encoding';
      return { code: 'SVC-415-001', message: `Unsupported ${header}. Send JSON in UTF-8.`, param: header };
    }
    const clientStatus = (err as { status?: unknown } | null)?.status;
    if (
      !(err instanceof HttpException) &&
      typeof clientStatus === 'number' &&
      clientStatus >= 400 &&
      clientStatus < 500
    ) {
      // Raised by body-parser for what the client sent (an aborted or miscounted body): the
      // client's fault, never a 500.
      const code = STATUS_TO_CODE[clientStatus] ?? 'SVC-400-001';
      return { code, message: ERROR_CATALOG[code].message };
    }
    if (err instanceof HttpException) {
      const status = err.getStatus();
      const code = STATUS_TO_CODE[status] ?? (status >= 500 ? 'SVC-500-001' : 'SVC-400-001');
      if (status === 404) {
        return { code, message: `Unrecognized request URL (${req.method} ${req.path}).` };
      }
      if (status >= 500) {
        return { code, message: ERROR_CATALOG[code].message };
      }
      return { code, message: code === 'SVC-401-001' ? ERROR_CATALOG[code].message : err.message };
    }
    if (isDatabaseUnavailable(err)) {
      // Refused before the transaction began, or cut during it (rolled back; cut during COMMIT,
      // its outcome unknown): sent again with the same Idempotency-Key, the request either runs
      // or replays the answer stored in the transaction that committed.
      return {
        code: 'SVC-503-001',
        message: 'The database is unavailable for a moment. Retry with the same Idempotency-Key.',
        headers: { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) },
      };
    }
    return { code: 'SVC-500-001', message: ERROR_CATALOG['SVC-500-001'].message };
  }
}
