import { LoggerService } from '@nestjs/common';
import pino, { Logger as Pino } from 'pino';
import type { Writable } from 'node:stream';
import { safeErrorSerializer } from 'src/core/logging/safe-errors';
import { STARTUP_DETAIL_CONTEXTS } from 'src/core/logging/startup-summary';

let destination: Writable | undefined;
let sharedStdout: ReturnType<typeof pino.destination> | undefined;

/** Writes out buffered log lines (called at shutdown). */
export function flushLogs(): void {
  sharedStdout?.flushSync();
}

/** Where logs go: stdout by default; tests point it at a buffer to check redaction. */
export function setLogDestination(stream: Writable | undefined): void {
  destination = stream;
}

/** Paths that must never reach a log line even if a future call logs such an object. */
export const REDACTED_PATHS = [
  'authorization',
  'headers.authorization',
  'req.headers.authorization',
  'secret',
  'password',
  '*.secret',
  '*.password',
  '*.secret_hash',
  'parameters',
  '*.parameters',
];

/**
 * Two pino loggers on one destination: `app` redacts (it logs objects handed to it, errors
 * included, whose bound query parameters and row data the `err` serializer drops); `requests` writes the fixed per-request line, which holds no header or body, and
 * skips the redaction pass that would otherwise run on every request.
 */
export function createPino(level: string): { app: Pino; requests: Pino } {
  // Lines are gathered into 4 KB writes instead of one write system call per request; what is
  // buffered is flushed on shutdown (flushLogs) and at most ~4 KB can be lost on a crash.
  const stream = destination ?? (sharedStdout ??= pino.destination({ fd: 1, sync: false, minLength: 4096 }));
  const base = { service: 'investment-api' };
  return {
    app: pino(
      {
        level,
        base,
        redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
        serializers: { err: safeErrorSerializer },
      },
      stream,
    ),
    requests: pino({ level, base }, stream),
  };
}

/**
 * Nest's LoggerService on top of pino: framework and application messages become JSON lines
 * with a `context`. Errors passed as objects keep their fields (err, requestId).
 */
export class AppLogger implements LoggerService {
  readonly pino: Pino;
  readonly requests: Pino;

  constructor(loggers: { app: Pino; requests: Pino }) {
    this.pino = loggers.app;
    this.requests = loggers.requests;
  }

  log(message: unknown, context?: string): void {
    // Nest's start-up detail (a line per module and per route) is debug; see startup-summary.ts.
    this.write(context && STARTUP_DETAIL_CONTEXTS.has(context) ? 'debug' : 'info', message, context);
  }

  error(message: unknown, ...rest: unknown[]): void {
    const context = typeof rest[rest.length - 1] === 'string' ? (rest[rest.length - 1] as string) : undefined;
    this.write(
      'error',
      message,
      context,
      rest.find((r) => typeof r === 'string' && r.includes('\n')) as string,
    );
  }

  warn(message: unknown, context?: string): void {
    this.write('warn', message, context);
  }

  debug(message: unknown, context?: string): void {
    this.write('debug', message, context);
  }

  verbose(message: unknown, context?: string): void {
    this.write('trace', message, context);
  }

  fatal(message: unknown, context?: string): void {
    this.write('fatal', message, context);
  }

  private write(level: pino.Level, message: unknown, context?: string, stack?: string): void {
    if (!this.pino.isLevelEnabled(level)) {
      return;
    }
    this.line(level, message, context, stack);
    if (level === 'error' || level === 'fatal') {
      // Errors are rare and wanted at once (and not lost in a crash): no waiting for 4 KB of lines.
      sharedStdout?.flush();
    }
  }

  private line(level: pino.Level, message: unknown, context?: string, stack?: string): void {
    if (message && typeof message === 'object' && !(message instanceof Error)) {
      this.pino[level]({ context, ...(message as object) }, context ?? '');
      return;
    }
    if (message instanceof Error) {
      this.pino[level]({ context, err: message }, message.message);
      return;
    }
    this.pino[level]({ context, ...(stack ? { stack } : {}) }, String(message));
  }
}
