import type { OpenAPIObject } from '@nestjs/swagger';
import { ERROR_CATALOG, ErrorCode } from 'src/core/errors/error-catalog';
import { errorExample } from 'src/core/errors/error-docs';
import { MAX_HEADER_BYTES } from 'src/core/http/client-errors';
import { JSON_BODY_LIMIT } from 'src/core/http/json-body';
import { MAX_JSON_DEPTH } from 'src/core/http/request-text';

type Json = Record<string, any>;

/**
 * Errors any /v1 operation can answer whatever its route says, published once under
 * components.responses and referenced from every operation that does not document the status
 * itself. Routes added later get them without a decorator.
 */
const SHARED_ERRORS: Record<
  string,
  { codes: ErrorCode[]; description: string; bodyOnly?: boolean; postOnly?: boolean }
> = {
  BadRequest: {
    codes: ['SVC-400-001', 'SVC-400-002', 'SVC-400-003'],
    description:
      `Invalid input, named in \`param\`: a field's value, a missing field, malformed JSON, JSON nested deeper ` +
      `than ${MAX_JSON_DEPTH} levels, or a NUL byte or lone UTF-16 surrogate in any string, query parameter or ` +
      'path id.',
  },
  Unauthorized: { codes: ['SVC-401-001'], description: 'Missing or invalid credentials.' },
  PayloadTooLarge: {
    codes: ['SVC-413-001'],
    description: `The JSON body exceeds ${JSON_BODY_LIMIT.toUpperCase()}.`,
    bodyOnly: true,
  },
  UnsupportedMediaType: {
    codes: ['SVC-415-001'],
    description: 'A body that is not `application/json` in UTF-8 (no charset, or `charset=utf-8`).',
    bodyOnly: true,
  },
  IdempotencyConflict: {
    codes: ['SVC-409-002', 'SVC-409-003'],
    description:
      'The Idempotency-Key was used within 24 h with other parameters, or its first request is still running.',
    postOnly: true,
  },
  TooManyRequests: { codes: ['SVC-429-001'], description:
      'The API key’s rate limit is spent, or too many failed authentications came for this public key or client address; see Retry-After.' },
  RequestHeaderFieldsTooLarge: {
    codes: ['SVC-431-001'],
    description: `The request line and headers exceed ${MAX_HEADER_BYTES / 1024} KiB.`,
  },
  InternalError: { codes: ['SVC-500-001'], description: 'An internal error; quote the Request-Id to support.' },
  ServiceUnavailable: {
    codes: ['SVC-503-001'],
    description:
      'The database refused or lost the connection (too many connections, a restart); nothing is known to ' +
      'have changed. Retry after Retry-After seconds with the same Idempotency-Key.',
  },
};

const RATE_LIMIT_HEADERS: Json = {
  'RateLimit-Limit': {
    description: 'Requests the API key may send at once (the burst); the bucket refills at the sustained rate.',
    schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 1000000 },
  },
  'RateLimit-Remaining': {
    description: 'Requests that may be sent at once now.',
    schema: { type: 'integer', format: 'int32', minimum: 0, maximum: 1000000 },
  },
  'RateLimit-Reset': {
    description: 'Seconds until the full burst is available again.',
    schema: { type: 'integer', format: 'int32', minimum: 0, maximum: 86400 },
  },
  'Retry-After': {
    description: 'Seconds to wait before retrying.',
    schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 86400 },
  },
};

/**
 * Statuses answered before the API key is counted (authentication failed, or the request was
 * refused while being read), so they carry no RateLimit headers.
 */
const UNCOUNTED_STATUSES = new Set(['401', '413', '415', '431']);

function sharedResponse(name: string): Json {
  const { codes, description } = SHARED_ERRORS[name];
  const status = ERROR_CATALOG[codes[0]].status;
  return {
    description: `${codes.join(', ')}: ${description}`,
    ...(UNCOUNTED_STATUSES.has(String(status)) ? {} : { headers: countedHeaders(String(status)) }),
    content: {
      'application/json': {
        schema: { $ref: '#/components/schemas/ErrorEnvelopeDto' },
        examples: Object.fromEntries(
          codes.map((code) => [code, { summary: ERROR_CATALOG[code].title, value: errorExample(code) }]),
        ),
      },
    },
  };
}

const RETRY_AFTER: Json = { 'Retry-After': { $ref: '#/components/headers/Retry-After' } };

/** The RateLimit headers, with Retry-After on a 429; a 503 (maybe before the count) has Retry-After alone. */
function countedHeaders(status: string): Json {
  if (status === '503') {
    return RETRY_AFTER;
  }
  const refs: Json = Object.fromEntries(
    ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'].map((h) => [h, { $ref: `#/components/headers/${h}` }]),
  );
  return status === '429' ? { ...refs, ...RETRY_AFTER } : refs;
}

/**
 * A media type may carry `example` or `examples`, not both (decorators merged for one status can
 * produce both): the single example joins the named ones.
 */
function foldExampleIntoExamples(response: Json): void {
  for (const media of Object.values((response.content ?? {}) as Json)) {
    if (media.example !== undefined && media.examples !== undefined) {
      media.examples = { example: { value: media.example }, ...media.examples };
      delete media.example;
    }
  }
}

/**
 * Adds the shared error responses and the RateLimit headers (on every 2xx and 4xx answer the
 * service counts against the key) to each /v1 operation. Returns whether any operation is a POST.
 */
export function addStandardResponses(document: OpenAPIObject): boolean {
  let anyPost = false;
  document.components ??= {};
  document.components.headers = { ...document.components.headers, ...RATE_LIMIT_HEADERS };
  document.components.responses = {
    ...document.components.responses,
    ...Object.fromEntries(Object.keys(SHARED_ERRORS).map((name) => [name, sharedResponse(name)])),
  } as typeof document.components.responses;
  for (const [path, item] of Object.entries(document.paths)) {
    if (!path.startsWith('/v1/')) {
      continue;
    }
    for (const method of ['get', 'post', 'put', 'patch', 'delete'] as const) {
      const operation = item[method];
      if (!operation) {
        continue;
      }
      const hasBody = method === 'post' || method === 'patch' || method === 'put';
      const responses = operation.responses as Json;
      for (const [name, shared] of Object.entries(SHARED_ERRORS)) {
        const status = String(ERROR_CATALOG[shared.codes[0]].status);
        const applies = (hasBody || !shared.bodyOnly) && (method === 'post' || !shared.postOnly);
        if (applies && !responses[status]) {
          responses[status] = { $ref: `#/components/responses/${name}` };
        }
      }
      for (const [status, response] of Object.entries(responses)) {
        foldExampleIntoExamples(response);
        if (/^[24]\d\d$/.test(status) && !UNCOUNTED_STATUSES.has(status) && !('$ref' in response)) {
          response.headers = { ...countedHeaders(status), ...response.headers };
        }
      }
      responses.default ??= {
        description: 'Any other error, as the SVC error envelope.',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelopeDto' } } },
      };
      if (method === 'post') {
        anyPost = true;
        operation.parameters = [...(operation.parameters ?? []), { $ref: '#/components/parameters/IdempotencyKey' }];
      }
    }
  }
  return anyPost;
}
