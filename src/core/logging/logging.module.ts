import { Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import pino from 'pino';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Writable } from 'node:stream';
import { AppConfig } from 'src/core/config/app-config.service';
import type { Principal } from 'src/core/auth/principal';

type LoggedRequest = IncomingMessage & { principal?: Principal; originalUrl?: string };

let destination: Writable | undefined;

/** Where logs go: stdout by default; tests point it at a buffer to check redaction. */
export function setLogDestination(stream: Writable | undefined): void {
  destination = stream;
}

/** Paths that must never reach a log line even if a future serializer includes them. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["idempotency-key"]',
  'headers.authorization',
  'authorization',
  'secret',
  'password',
  '*.secret',
  '*.password',
  '*.secret_hash',
];

/**
 * Structured JSON logs through pino: one line per request with request id, tenant, method,
 * url, status and duration. Request headers and bodies are not serialized at all.
 */
@Module({
  imports: [
    LoggerModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        pinoHttp: [
          {
            level: config.get('LOG_LEVEL'),
            base: { service: 'investment-api' },
            redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
            genReqId: (req: IncomingMessage) => (req as { id?: string }).id ?? 'req_unknown',
            customProps: (req: IncomingMessage) =>
              (req as LoggedRequest).principal
                ? {
                    tenant_id: (req as LoggedRequest).principal?.tenantId,
                    livemode: (req as LoggedRequest).principal?.livemode,
                  }
                : {},
            serializers: {
              req: (req: { id: string; method: string; url: string; raw?: LoggedRequest }) => ({
                id: req.id,
                method: req.method,
                url: req.raw?.originalUrl ?? req.url,
              }),
              res: (res: ServerResponse & { statusCode: number }) => ({ status: res.statusCode }),
            },
            autoLogging: { ignore: (req: IncomingMessage) => (req.url ?? '').startsWith('/health') },
          },
          destination ?? pino.destination({ fd: 1, sync: false }),
        ],
      }),
    }),
  ],
})
export class LoggingModule {}
