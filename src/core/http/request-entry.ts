import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { newId } from 'src/core/ids/ids';

/** What the entry middleware leaves on a request. */
export type EnteredRequest = Request & { id?: string; legacyApi?: boolean; startedAt?: number };

/**
 * Called once a response has been sent: the request log line and the partner request log each
 * take what they need here (`durationMs` since the request entered, `now` in epoch ms).
 */
export type FinishedRequestHandler = (
  req: EnteredRequest,
  res: Response,
  durationMs: number,
  now: number,
) => void;

export interface RequestEntryOptions {
  apiPrefix: string;
  /** Requests under this path are served by the /v1 handlers (marked `legacyApi`). */
  legacyPrefix: string;
  /** Fixed headers on every answer (staticHeadersOf). */
  headers: ReadonlyArray<readonly [string, string]>;
  onFinished: ReadonlyArray<FinishedRequestHandler | null>;
  parseBody: RequestHandler;
  checkQuery: RequestHandler;
}

/**
 * The headers a header-setting middleware (helmet, with options that do not depend on the
 * request) sets, read once at start-up, so each request sets them in one loop instead of passing
 * through a dozen middleware functions. Throws if the middleware turns out to depend on the
 * request or to answer asynchronously.
 */
export function staticHeadersOf(middleware: RequestHandler): Array<[string, string]> {
  const headers: Array<[string, string]> = [];
  let called = false;
  const res = {
    setHeader: (name: string, value: string) => headers.push([name, String(value)]),
    // Only X-Powered-By, which Express is told never to send (app.setup).
    removeHeader: () => undefined,
  };
  void middleware({} as Request, res as unknown as Response, () => {
    called = true;
  });
  if (!called) {
    throw new Error('staticHeadersOf: the middleware did not finish synchronously');
  }
  return headers;
}

/**
 * The one entry middleware (each Express layer costs a match and a dispatch on every request):
 * request id on every response, the legacy alias rewritten to /v1 (same handlers), the fixed
 * security headers, one `finish` listener for what is recorded about the request, then JSON
 * bodies and query strings checked before any route runs.
 * The listener is one shared function reading the request from the response, not a closure per
 * request; health probes get none (they are neither logged nor recorded).
 */
export function requestEntry(options: RequestEntryOptions): RequestHandler {
  const { legacyPrefix, headers, parseBody, checkQuery } = options;
  const apiPrefix = `/${options.apiPrefix}`;
  const handlers = options.onFinished.filter((h): h is FinishedRequestHandler => h !== null);
  function onFinish(this: ServerResponse): void {
    const res = this as Response;
    const req = res.req as EnteredRequest;
    const durationMs = performance.now() - (req.startedAt ?? 0);
    const now = Date.now();
    for (let i = 0; i < handlers.length; i++) {
      handlers[i](req, res, durationMs, now);
    }
  }
  return (req: EnteredRequest, res: Response, next: NextFunction) => {
    const id = newId('request');
    req.id = id;
    res.setHeader('Request-Id', id);
    if (req.url.startsWith(legacyPrefix) && /^[/?]?$/.test(req.url.charAt(legacyPrefix.length))) {
      req.url = `${apiPrefix}${req.url.slice(legacyPrefix.length)}`;
      req.legacyApi = true;
    }
    for (let i = 0; i < headers.length; i++) {
      res.setHeader(headers[i][0], headers[i][1]);
    }
    if (handlers.length > 0 && !req.url.startsWith('/health')) {
      req.startedAt = performance.now();
      res.on('finish', onFinish);
    }
    parseBody(req, res, (err?: unknown) => (err ? next(err) : checkQuery(req, res, next)));
  };
}
