import { INestApplication, RequestMethod } from '@nestjs/common';
import { SwaggerModule } from '@nestjs/swagger';
import { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';
import type { Server } from 'node:http';
import { AppConfig } from 'src/core/config/app-config.service';
import { useReplicaReads } from 'src/core/database/replicas/replicas.module';
import { ErrorRenderer } from 'src/core/errors/error-renderer';
import { answerClientErrorsWithEnvelope, boundSlowClients } from 'src/core/http/client-errors';
import { jsonBodyParser } from 'src/core/http/json-body';
import { answerJsonDirectly } from 'src/core/http/json-response';
import { requestEntry, staticHeadersOf } from 'src/core/http/request-entry';
import { queryTextCheck, RequestTextPipe } from 'src/core/http/request-text.checks';
import { ServiceValidationPipe } from 'src/core/http/service-validation.pipe';
import { AppLogger } from 'src/core/logging/app-logger';
import { requestLogLine } from 'src/core/logging/request-log-line';
import { mountQueueBoard } from 'src/modules/dashboard/queue-board';
import { serveDashboard } from 'src/modules/dashboard/serve-dashboard';
import { RequestLogRecorder } from 'src/modules/request-logs/request-log-recorder.service';
import { buildOpenApiDocument } from 'src/openapi/openapi-document';
import { serveSwaggerUi } from 'src/openapi/swagger-ui';

export const API_PREFIX = 'v1';

/** Marks requests that came in through the legacy alias, after the path was rewritten to /v1. */
export function isLegacyRequest(req: Request): boolean {
  return (req as Request & { legacyApi?: boolean }).legacyApi === true;
}

/**
 * Everything main.ts applies to the Nest app, in one place, so tests and the OpenAPI script
 * build exactly the app that runs.
 */
// eslint-disable-next-line max-lines-per-function -- the request pipeline in the order requests meet it; split up, that order would be spread over files.
export function configureApp(app: INestApplication, options: { swagger?: boolean } = {}): void {
  const config = app.get(AppConfig);
  const renderer = app.get(ErrorRenderer);
  const logger = app.get(AppLogger);
  app.useLogger(logger);
  const express = app.getHttpAdapter().getInstance() as Parameters<typeof answerJsonDirectly>[0] & {
    disable(name: string): void;
    set(k: string, v: unknown): void;
  };
  express.disable('x-powered-by');
  express.set('etag', false);
  express.set('query parser', 'extended');
  // JSON answers written without Express's per-call header formatting (same bytes and headers).
  answerJsonDirectly(express);

  // One entry middleware (src/core/http/request-entry.ts): request id, the legacy alias rewritten
  // to /v1 (same handlers), helmet's usual security headers (computed once; the strict
  // Content-Security-Policy is the dashboard's, serveDashboard, as Swagger UI at /docs has its own
  // needs), one `finish` listener for the request log line and the partner-facing request log
  // (GET /v1/request-logs, written in batches off the request path), then JSON bodies (content
  // type, charset, size, nesting, text) and query strings (text) checked before any route runs;
  // path parameters and form fields by RequestTextPipe.
  app.use(
    requestEntry({
      apiPrefix: API_PREFIX,
      legacyPrefix: config.get('LEGACY_BASE_PATH').replace(/\/$/, ''),
      headers: staticHeadersOf(helmet({ contentSecurityPolicy: false })),
      onFinished: [requestLogLine(logger.requests), app.get(RequestLogRecorder).onFinished()],
      parseBody: jsonBodyParser(),
      checkQuery: queryTextCheck(),
    }),
  );

  // The partner dashboard (static page) and, for support, the queue board (only when
  // ADMIN_CREDENTIALS is set): one path-scoped layer each, after the entry middleware.
  serveDashboard(app);
  mountQueueBoard(app);

  // Body-parser failures (malformed JSON, too large) leave through the same error envelope.
  app.use((err: unknown, req: Request, res: Response, next: NextFunction) => {
    if (!err) {
      next();
      return;
    }
    renderer.render(err, req, res);
  });

  app.setGlobalPrefix(API_PREFIX, {
    exclude: [
      { path: 'health/live', method: RequestMethod.GET },
      { path: 'health/ready', method: RequestMethod.GET },
      { path: 'docs/errors', method: RequestMethod.GET },
    ],
  });
  app.useGlobalPipes(new RequestTextPipe(), new ServiceValidationPipe());
  useReplicaReads(app);
  answerClientErrorsWithEnvelope(app.getHttpServer() as Server, renderer);
  boundSlowClients(
    app.getHttpServer() as Server,
    config.get('HTTP_HEADERS_TIMEOUT_MS'),
    config.get('HTTP_REQUEST_TIMEOUT_MS'),
  );
  app.enableShutdownHooks();

  if (options.swagger !== false) {
    const document = buildOpenApiDocument(app);
    // The spec as JSON and YAML from SwaggerModule; the UI page and its start script are ours
    // (src/openapi/swagger-ui.ts), so the spec is never spliced into JavaScript.
    SwaggerModule.setup('docs', app, document, {
      ui: false,
      jsonDocumentUrl: 'docs/openapi.json',
      yamlDocumentUrl: 'docs/openapi.yaml',
    });
    serveSwaggerUi(app, 'docs', 'Investment Service API');
  }
}
