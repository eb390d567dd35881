import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { load } from 'js-yaml';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Checks responses against the committed OpenAPI document (`openapi/openapi.yaml`): the status
 * is documented for the operation, the content type is one the operation documents, and a JSON
 * body validates against the schema with no undocumented fields (every object schema that lists
 * `properties` is read as `additionalProperties: false` unless it says otherwise). The spec's
 * schema semantics are read strictly (OpenAPI 3.0.3): `nullable` adds null only to the `type`
 * beside it. Paths under the legacy alias are checked against the same operations, except those the
 * document lists under the alias itself (the legacy shape of asset search); paths the
 * document does not know must answer an error envelope (or, under an add-on product, the
 * legacy PRODUCT_NOT_ENABLED body).
 */

type Json = Record<string, any>;

/** Paths the document deliberately leaves out: test-only probes, health, docs, the dashboard page and the queue board. */
const EXEMPT_PATHS = [
  /^\/v1\/probe(\/|$)/,
  /^\/health(\/|$)/,
  /^\/docs(\/|$)/,
  /^\/dashboard(\/|$)/,
  /^\/admin\/queues(\/|$)/,
];
/** The legacy alias maps onto the same operations (a rewrite in front of the router). */
const LEGACY_PREFIX = /^\/legacy\/v1(?=\/|$)/;
/** Add-on products answer their legacy 403 body on every path below them, unknown ones too. */
const PRODUCT_PATHS = /^\/v1\/(market-data|cash-management)(\/|$)/;
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

export interface CheckedResponse {
  method: string;
  /** Path as requested, with or without its query string. */
  url: string;
  status: number;
  contentType: string | undefined;
  /** The parsed JSON body (or anything else for other content types). */
  body: unknown;
  /** The raw body, when the client kept it as text. */
  text?: string;
}

interface Route {
  template: string;
  pattern: RegExp;
  params: number;
  item: Json;
}

const SCHEMA_CHILDREN = ['items', 'not', 'additionalProperties'];
const SCHEMA_LISTS = ['allOf', 'oneOf', 'anyOf'];

/** Strict reading of one schema (recursively): closed objects, OpenAPI refs made absolute. */
function prepareSchema(schema: unknown): unknown {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) {
    return schema;
  }
  const out: Json = { ...(schema as Json) };
  if (typeof out.$ref === 'string') {
    return { $ref: `openapi.json${out.$ref}` }; // OpenAPI 3.0: siblings of $ref are ignored
  }
  if (out.nullable === true && out.type === undefined) {
    delete out.nullable; // OpenAPI 3.0.3: nullable without type adds nothing
  }
  if (out.properties) {
    out.properties = Object.fromEntries(
      Object.entries(out.properties as Json).map(([name, child]) => [name, prepareSchema(child)]),
    );
    out.additionalProperties ??= false;
  }
  for (const key of SCHEMA_CHILDREN) {
    if (out[key] && typeof out[key] === 'object') {
      out[key] = prepareSchema(out[key]);
    }
  }
  for (const key of SCHEMA_LISTS) {
    if (Array.isArray(out[key])) {
      out[key] = (out[key] as unknown[]).map(prepareSchema);
    }
  }
  return out;
}

function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0].trim().toLowerCase();
}

function isJson(media: string): boolean {
  return media === 'application/json' || media.endsWith('+json');
}

function describeErrors(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? [])
    .slice(0, 8)
    .map((e) => {
      const extra =
        e.keyword === 'additionalProperties'
          ? ` (${(e.params as { additionalProperty: string }).additionalProperty})`
          : e.keyword === 'enum'
            ? ` (${JSON.stringify((e.params as { allowedValues: unknown[] }).allowedValues)})`
            : '';
      return `  ${e.instancePath || '(body)'}: ${e.message}${extra}`;
    })
    .join('\n');
}

export class OpenApiResponseValidator {
  private readonly ajv: Ajv;
  private readonly routes: Route[];
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(private readonly document: Json) {
    this.ajv = new Ajv({ allErrors: true, strict: false, discriminator: true });
    addFormats(this.ajv);
    this.ajv.addFormat('int32', {
      type: 'number',
      validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31,
    });
    this.ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isSafeInteger(n) });
    for (const format of ['float', 'double', 'binary', 'byte', 'decimal']) {
      this.ajv.addFormat(format, true);
    }
    const schemas = Object.fromEntries(
      Object.entries((document.components?.schemas ?? {}) as Json).map(([name, s]) => [
        name,
        prepareSchema(s),
      ]),
    );
    this.ajv.addSchema({ components: { schemas } }, 'openapi.json');
    this.routes = Object.entries(document.paths as Json)
      .map(([template, item]) => ({
        template,
        item: item as Json,
        params: (template.match(/\{[^}]+\}/g) ?? []).length,
        pattern: new RegExp(
          `^${template
            .split(/(\{[^}]+\})/)
            .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
            .join('')}$`,
        ),
      }))
      .sort((a, b) => a.params - b.params); // `/assets/search` before `/assets/{id}`
  }

  static fromFile(file = join(__dirname, '..', '..', 'openapi', 'openapi.yaml')): OpenApiResponseValidator {
    return new OpenApiResponseValidator(load(readFileSync(file, 'utf8')) as Json);
  }

  /** A description of everything wrong with the response, or undefined when it matches. */
  check(res: CheckedResponse): string | undefined {
    const method = res.method.toLowerCase();
    const path = res.url.replace(/^[a-z]+:\/\/[^/]+/i, '').split('?')[0];
    const specPath = path.replace(LEGACY_PREFIX, '/v1');
    if (EXEMPT_PATHS.some((p) => p.test(specPath)) || method === 'options') {
      return undefined;
    }
    const media = mediaType(res.contentType);
    // An operation the legacy deployment answers in its own shape is documented at its own path
    // (GET /legacy/v1/assets/search); every other legacy path is the /v1 operation.
    const route =
      this.routes.find((r) => r.pattern.test(path)) ?? this.routes.find((r) => r.pattern.test(specPath));
    const operation = route?.item[method === 'head' ? 'get' : method] as Json | undefined;
    const where = `${res.method.toUpperCase()} ${res.url} → ${res.status} ${res.contentType ?? '(no content type)'}`;
    const fail = (problem: string) =>
      `Response does not match openapi/openapi.yaml (${operation ? `${operation.operationId}, ` : ''}${
        route && operation ? `${method.toUpperCase()} ${route.template}` : 'no documented operation'
      }):\n  ${where}\n${problem}\n  body: ${this.bodyText(res)}`;

    if (!operation) {
      // Unknown routes and methods answer an error, in the envelope (or the add-on legacy body).
      if (res.status < 400) {
        return fail(`  ${method.toUpperCase()} ${path} is not in the document but answered ${res.status}.`);
      }
      const legacyAllowed = res.status === 403 && PRODUCT_PATHS.test(specPath);
      const schemas = legacyAllowed ? ['ErrorEnvelopeDto', 'LegacyErrorDto'] : ['ErrorEnvelopeDto'];
      return this.checkJson(
        media,
        res,
        schemas.map((name) => ({
          key: name,
          schema: () => ({ $ref: `openapi.json#/components/schemas/${name}` }),
        })),
        fail,
      );
    }
    const responses = operation.responses as Json;
    // Each status must be listed for the operation: `default` ("any other error") does not count,
    // so a route answering an error it does not document fails here.
    const documented = this.resolve(
      responses[String(res.status)] ?? responses[`${Math.floor(res.status / 100)}XX`],
    );
    if (!documented) {
      return fail(
        `  status ${res.status} is not documented (documented: ${Object.keys(responses).join(', ')}).`,
      );
    }
    const content = (documented.content ?? {}) as Json;
    const mediaTypes = Object.keys(content);
    if (mediaTypes.length === 0) {
      return res.text || (res.body && typeof res.body === 'object' && Object.keys(res.body).length > 0)
        ? fail('  the response documents no body but one was sent.')
        : undefined;
    }
    if (method === 'head') {
      return undefined;
    }
    const matched = mediaTypes.find(
      (m) => m === media || m === '*/*' || (m.endsWith('/*') && media.startsWith(m.slice(0, -1))),
    );
    if (!matched) {
      return fail(
        `  content type ${media || '(none)'} is not documented (documented: ${mediaTypes.join(', ')}).`,
      );
    }
    const schema = (content[matched] as Json).schema;
    const key = `${method} ${route!.template} ${res.status} ${matched}`;
    return schema && isJson(media)
      ? this.checkJson(media, res, [{ key, schema: () => prepareSchema(schema) }], fail)
      : undefined;
  }

  /** Follows a `$ref` to components (shared responses). */
  private resolve(node: Json | undefined): Json | undefined {
    if (!node || typeof node.$ref !== 'string') {
      return node;
    }
    const target = (node.$ref as string)
      .replace(/^#\//, '')
      .split('/')
      .reduce<Json | undefined>(
        (at, key) => at?.[key.replace(/~1/g, '/').replace(/~0/g, '~')] as Json,
        this.document,
      );
    return this.resolve(target);
  }

  private checkJson(
    media: string,
    res: CheckedResponse,
    schemas: Array<{ key: string; schema: () => unknown }>,
    fail: (problem: string) => string,
  ): string | undefined {
    if (!isJson(media)) {
      return fail(`  expected a JSON body, got content type ${media || '(none)'}.`);
    }
    const problems: string[] = [];
    for (const { key, schema } of schemas) {
      const validate = this.validator(key, schema);
      if (validate(res.body)) {
        return undefined;
      }
      problems.push(describeErrors(validate.errors));
    }
    return fail(problems.join('\n  -- or --\n'));
  }

  private validator(key: string, schema: () => unknown): ValidateFunction {
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.ajv.compile(schema() as object);
      this.validators.set(key, validate);
    }
    return validate;
  }

  private bodyText(res: CheckedResponse): string {
    const text = res.text ?? (typeof res.body === 'string' ? res.body : JSON.stringify(res.body));
    return text === undefined
      ? '(none)'
      : text.length > 2000
        ? `${text.slice(0, 2000)}… (${text.length} chars)`
        : text;
  }

  /** Every documented (path, method) pair, for tests that walk the API. */
  operations(): Array<{ path: string; method: string; operation: Json }> {
    return this.routes.flatMap((r) =>
      METHODS.filter((m) => r.item[m]).map((m) => ({
        path: r.template,
        method: m,
        operation: r.item[m] as Json,
      })),
    );
  }
}

let shared: OpenApiResponseValidator | undefined;

/** The validator of the committed document, loaded once per test file. */
export function committedSpecValidator(): OpenApiResponseValidator {
  shared ??= OpenApiResponseValidator.fromFile();
  return shared;
}

interface SupertestResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  text?: string;
  req: { method: string; path: string };
}

/** Kept for test/support/e2e-environment.js, which shows them when the test fails. */
function recordForFailureReport(res: SupertestResponse): void {
  const seen = (globalThis as { __e2eResponses?: unknown[] }).__e2eResponses;
  if (!seen) {
    return;
  }
  const text = typeof res.text === 'string' && res.text !== '' ? res.text : JSON.stringify(res.body ?? null);
  seen.push({ method: res.req.method, path: res.req.path, status: res.status, body: text ?? '' });
  if (seen.length > 10) {
    seen.shift();
  }
}

/** A supertest assertion: throws (failing the calling test) when the response drifts from the spec. */
export function assertMatchesOpenApi(res: SupertestResponse): void {
  recordForFailureReport(res);
  const problem = committedSpecValidator().check({
    method: res.req.method,
    url: res.req.path,
    status: res.status,
    contentType: res.headers['content-type'],
    body: res.body,
    text: typeof res.text === 'string' ? res.text : undefined,
  });
  if (problem) {
    throw new Error(problem);
  }
}

/**
 * Wraps a supertest client (`request(server)`) so every request it makes checks its response
 * with assertMatchesOpenApi before the test sees it.
 */
export function validatingResponses<T extends object>(client: T): T {
  const wrapped = { ...client } as Record<string, unknown>;
  for (const method of [...METHODS, 'del']) {
    const make = (client as Record<string, unknown>)[method];
    if (typeof make === 'function') {
      wrapped[method] = (...args: unknown[]) =>
        (make.apply(client, args) as { expect(fn: (res: SupertestResponse) => void): unknown }).expect(
          assertMatchesOpenApi,
        );
    }
  }
  return wrapped as T;
}
