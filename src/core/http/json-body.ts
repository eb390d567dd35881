import { json, NextFunction, Request, RequestHandler, Response } from 'express';
import {
  canReadDirectly,
  parseJsonBody,
  readJsonBody,
  refuseWideOrDeep,
} from 'src/core/http/json-body-reader';
import { findTextProblem, MAX_JSON_DEPTH } from 'src/core/http/request-text';
import { RequestTextError } from 'src/core/http/request-text-error';
import { UnsupportedMediaTypeError } from 'src/core/http/unsupported-media-type-error';

/** Largest JSON body accepted (413 SVC-413-001 beyond), in bytes. */
const JSON_BODY_LIMIT_BYTES = 1024 * 1024;
/** The same limit as body-parser and the documentation write it ('1mb'). */
export const JSON_BODY_LIMIT = `${JSON_BODY_LIMIT_BYTES / (1024 * 1024)}mb`;

/** Bodies already checked for text problems at parse time; the RequestTextPipe skips them. */
const inspectedBodies = new WeakSet<object>();

/** The body bytes as received, as text (webhook sinks keep them for signature checks). */
export function rawBodyOf(req: Request): string {
  const raw = (req as Request & { rawBody?: Buffer }).rawBody;
  return raw ? raw.toString('utf8') : '';
}

export function isInspectedBody(value: unknown): boolean {
  return typeof value === 'object' && value !== null && inspectedBodies.has(value);
}

function mediaTypeAndCharset(header: string): { media: string; charset: string | undefined } {
  const [media, ...params] = header.split(';');
  const charset = params
    .map((p) => p.trim().split('='))
    .find(([name]) => name.trim().toLowerCase() === 'charset')?.[1];
  return { media: media.trim().toLowerCase(), charset: charset?.trim().replace(/^"|"$/g, '') };
}

function isJsonMedia(media: string): boolean {
  return media === 'application/json' || (media.startsWith('application/') && media.endsWith('+json'));
}

/**
 * Parses JSON request bodies and refuses, before any route runs:
 * - a body in another content type (415 SVC-415-001, `param: Content-Type`), except
 *   `multipart/form-data`, which the upload route parses itself;
 * - a charset other than UTF-8 (415 SVC-415-001);
 * - malformed JSON (400 SVC-400-003) or more than 1 MB (413 SVC-413-001);
 * - objects wider than MAX_OBJECT_KEYS, arrays longer than MAX_ARRAY_ITEMS and nesting deeper than
 *   MAX_JSON_DEPTH, found by a scan of the text before it is parsed (400 SVC-400-001 naming the
 *   first field past the limit);
 * - nesting deeper than MAX_JSON_DEPTH, NUL bytes or lone surrogates in any string or key, and
 *   prototype keys (400 SVC-400-001 naming the field).
 * Requests without a body skip the parser entirely; so does a body sent without Content-Type,
 * which the route then sees as absent.
 */
export function jsonBodyParser(): RequestHandler {
  const parse = json({
    limit: JSON_BODY_LIMIT,
    type: () => true,
    verify: (req, _res, buf) => {
      (req as Request & { rawBody?: Buffer }).rawBody = buf;
      refuseWideOrDeep(buf.toString('utf8'));
    },
  });
  return (req: Request, res: Response, next: NextFunction) => {
    const verdict = bodyVerdict(req);
    if (verdict !== 'json') {
      next(verdict === 'skip' ? undefined : verdict);
      return;
    }
    const parsed = checkParsed(req, next);
    if (!canReadDirectly(req, JSON_BODY_LIMIT_BYTES)) {
      parse(req, res, parsed);
      return;
    }
    // The usual body (plain, of a declared length within the limit) is read and parsed here, as
    // body-parser would, without its per-request content-type parsing and decoder streams.
    readJsonBody(req, (err, bytes) => {
      if (err || !bytes) {
        next(err);
        return;
      }
      (req as Request & { rawBody?: Buffer }).rawBody = bytes;
      try {
        req.body = parseJsonBody(bytes);
      } catch (parseError) {
        next(parseError);
        return;
      }
      parsed();
    });
  };
}

/**
 * What the parser does with a request: nothing (no body, no Content-Type, or a multipart upload
 * left to its route), parse it as JSON, or refuse its content type or charset (415).
 */
function bodyVerdict(req: Request): 'skip' | 'json' | UnsupportedMediaTypeError {
  const length = req.headers['content-length'];
  if ((length === undefined || length === '0') && req.headers['transfer-encoding'] === undefined) {
    return 'skip';
  }
  const header = req.headers['content-type'];
  if (header === undefined) {
    return 'skip';
  }
  const { media, charset } = mediaTypeAndCharset(header);
  if (media === 'multipart/form-data') {
    return 'skip';
  }
  if (!isJsonMedia(media)) {
    return UnsupportedMediaTypeError.contentType(media);
  }
  if (charset !== undefined && charset.toLowerCase() !== 'utf-8') {
    return UnsupportedMediaTypeError.charset(charset);
  }
  return 'json';
}

/** After parsing: the parsed body's text checks (400 naming the field), then the route. */
function checkParsed(req: Request, next: NextFunction): (err?: unknown) => void {
  return (err?: unknown) => {
    if (err) {
      next(err);
      return;
    }
    const body: unknown = req.body;
    const problem = findTextProblem(body, undefined, MAX_JSON_DEPTH);
    if (problem) {
      next(new RequestTextError(problem));
      return;
    }
    if (typeof body === 'object' && body !== null) {
      inspectedBodies.add(body);
    }
    next();
  };
}
