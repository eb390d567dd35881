import type { Request, Response } from 'express';

interface ExpressApp {
  response: Response;
  settings: Record<string, unknown>;
}

/** The Content-Type Express writes for a JSON body (`mime.contentType` then `setCharset`). */
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * Express's `res.json` for the common answer, with the same bytes and headers: no JSON settings
 * (replacer, spaces, escape) and no ETag function, no Content-Type set yet, a status with a body,
 * not HEAD and no conditional GET. Everything else goes through Express's own `res.json`.
 * Express's path formats the Content-Type twice (a MIME look-up, then a parse and format to add
 * the charset), reads each setting through `app.get` and computes `req.fresh`: a few percent of
 * the CPU of a small JSON request.
 */
export function answerJsonDirectly(app: ExpressApp): void {
  const expressJson = app.response.json;
  const settings = app.settings;
  app.response.json = function json(this: Response, body?: unknown) {
    if (
      !isPlainAnswer(this) ||
      settings['json replacer'] ||
      settings['json spaces'] ||
      settings['json escape'] ||
      typeof settings['etag fn'] === 'function'
    ) {
      return expressJson.call(this, body);
    }
    const text = JSON.stringify(body) as string | undefined;
    if (text === undefined) {
      return expressJson.call(this, body);
    }
    this.setHeader('Content-Type', JSON_CONTENT_TYPE);
    this.setHeader('Content-Length', String(Buffer.byteLength(text, 'utf8')));
    this.end(text, 'utf8');
    return this;
  };
}

function isPlainAnswer(res: Response): boolean {
  const status = res.statusCode;
  if (status === 204 || status === 205 || status === 304 || res.hasHeader('content-type')) {
    return false;
  }
  const req = res.req as Request;
  if (req.method === 'HEAD') {
    return false;
  }
  // A conditional GET may be answered 304 (req.fresh).
  return (
    req.method !== 'GET' ||
    (req.headers['if-none-match'] === undefined && req.headers['if-modified-since'] === undefined)
  );
}
