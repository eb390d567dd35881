import type { Request } from 'express';
import { findShapeProblem } from 'src/core/http/json-shape-scan';
import { RequestTextError } from 'src/core/http/request-text-error';

/** An error shaped like body-parser's (`status`, `type`): the error renderer answers it the same way. */
function bodyError(status: number, type: string, message: string): Error {
  return Object.assign(new Error(message), { status, statusCode: status, expose: true, type });
}

/**
 * body-parser's `json()` parse of a UTF-8 body: the byte order mark dropped (as its decoder does),
 * an empty body read as `{}`, an object or array only (strict), anything else 400
 * `entity.parse.failed`; too wide or too deep (refuseWideOrDeep) 400 SVC-400-001 before parsing.
 */
export function parseJsonBody(bytes: Buffer): unknown {
  const start = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const text = bytes.toString('utf8', start);
  if (text.length === 0) {
    return {};
  }
  if (!startsLikeObjectOrArray(text)) {
    throw bodyError(400, 'entity.parse.failed', 'Unexpected token in JSON body');
  }
  refuseWideOrDeep(text);
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw bodyError(400, 'entity.parse.failed', (err as Error).message);
  }
}

/**
 * Refuses (400 SVC-400-001 naming the field) JSON text with an object, an array or a nesting past
 * the limits, before it is parsed: parsing alone of a very wide object costs more than the limit
 * on a request's hold of the event loop.
 */
export function refuseWideOrDeep(text: string): void {
  const problem = findShapeProblem(text);
  if (problem) {
    throw new RequestTextError(problem);
  }
}

/** JSON whitespace: space, tab, line feed, carriage return. */
function isJsonWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

/** The first character after JSON whitespace is `{` or `[` (body-parser's strict mode). */
function startsLikeObjectOrArray(text: string): boolean {
  let i = 0;
  while (i < text.length && isJsonWhitespace(text.charCodeAt(i))) {
    i++;
  }
  return text[i] === '{' || text[i] === '[';
}

/**
 * Whether readJsonBody can take this request: a plain (not compressed) body of a declared length
 * within `limit`. The rest (compressed or chunked bodies, a declared length over the limit, a
 * stream already read) goes through body-parser, with its checks and answers.
 */
export function canReadDirectly(req: Request, limit: number): boolean {
  const encoding = req.headers['content-encoding'];
  if ((encoding !== undefined && encoding.toLowerCase() !== 'identity') || req.readableEnded) {
    return false;
  }
  if (req.headers['transfer-encoding'] !== undefined) {
    return false;
  }
  const declared = req.headers['content-length'];
  return declared !== undefined && /^\d{1,10}$/.test(declared) && Number(declared) <= limit;
}

/**
 * Reads a body of a declared length (canReadDirectly) and hands over its bytes, or the error
 * body-parser would give when the client stops sending early (400 `request.aborted`).
 */
export function readJsonBody(req: Request, done: (err: Error | null, bytes?: Buffer) => void): void {
  const chunks: Buffer[] = [];
  let settled = false;
  const finish = (err: Error | null, bytes?: Buffer) => {
    if (!settled) {
      settled = true;
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onAbort);
      req.off('close', onAbort);
      done(err, bytes);
    }
  };
  const onData = (chunk: Buffer) => chunks.push(chunk);
  const onEnd = () => finish(null, chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
  const onAbort = () => finish(bodyError(400, 'request.aborted', 'request aborted'));
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('error', onAbort);
  req.on('close', onAbort);
}
