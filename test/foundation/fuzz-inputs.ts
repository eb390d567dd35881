import fc from 'fast-check';
import { load } from 'js-yaml';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Hostile requests for every operation of the committed OpenAPI document, so routes added later
 * are fuzzed without a change here. Deterministic: the fast-check part uses a fixed seed.
 */

type Json = Record<string, any>;

export const FUZZ_SEED = 20_251_122;
/** At most this many body mutations per operation (chosen with the seed when there are more). */
const MAX_BODY_CASES = 30;
/** At most this many cases for the documented query parameters of one operation. */
const MAX_QUERY_CASES = 16;

export interface FuzzCase {
  method: string;
  /** Path with query string, already percent-encoded as sent. */
  url: string;
  /** Raw body text, sent as application/json unless contentType says otherwise. */
  body?: string;
  contentType?: string;
  /** What was done to the request, for the failure report. */
  input: string;
  /** The operation answers an endless text/event-stream on success: read the status, then hang up. */
  stream?: boolean;
}

export interface FuzzOperation {
  method: string;
  template: string;
  operation: Json;
}

export function loadCommittedDocument(): Json {
  return load(readFileSync(join(__dirname, '..', '..', 'openapi', 'openapi.yaml'), 'utf8')) as Json;
}

export function jsonOperations(document: Json): FuzzOperation[] {
  const out: FuzzOperation[] = [];
  for (const [template, item] of Object.entries(document.paths as Json)) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
      if (item[method]) {
        out.push({ method, template, operation: item[method] as Json });
      }
    }
  }
  return out;
}

function resolve(document: Json, node: Json | undefined): Json | undefined {
  if (!node || typeof node.$ref !== 'string') {
    return node;
  }
  const target = (node.$ref as string)
    .replace(/^#\//, '')
    .split('/')
    .reduce<Json | undefined>((at, key) => at?.[key] as Json, document);
  return resolve(document, target);
}

/** Path segment values that have broken or could break a route, percent-encoded as sent. */
const HOSTILE_IDS = [
  '%00',
  'inv_%00x',
  '%ED%A0%80',
  '%E0%A4%A',
  'x'.repeat(4000),
  '__proto__',
  '%2e%2e%2f%2e%2e%2fetc',
  '1e309',
  '%F0%9F%9A%80',
];

/** Query values (raw, percent-encoded) and structural shapes for one parameter name. */
function hostileQueries(name: string): string[] {
  const key = encodeURIComponent(name);
  const values = [
    '%00',
    '',
    'x'.repeat(5000),
    '-1',
    '1e309',
    'NaN',
    '%ED%A0%80',
    '99999999999999999999',
    '9223372036854775808',
    '%01%1B',
  ];
  return [...values.map((v) => `${key}=${v}`), `${key}[]=1&${key}[]=2`, `${key}[a]=1`, `${key}=1&${key}=2`];
}

/** Undocumented parameters every operation gets: prototype keys and NUL. */
const HOSTILE_EXTRA_QUERIES = ['__proto__[polluted]=1', 'constructor[prototype][polluted]=1', 'zz=%00'];

/** Replacement values for one field: wrong types, text PostgreSQL refuses, sizes, prototype keys. */
function hostileValues(schema: Json | undefined): unknown[] {
  const deep = JSON.parse(`${'['.repeat(40)}${']'.repeat(40)}`) as unknown;
  const values: unknown[] = [
    null,
    true,
    -1,
    1e308,
    'x'.repeat(20_000),
    '\u0000',
    '\u0001\u001b[31m\u007f',
    'a\ud800',
    [],
    {},
    deep,
    JSON.parse('{"__proto__":{"polluted":"yes"}}') as unknown,
  ];
  if (schema?.type === 'string') {
    values.push(1, '2020-13-45');
  } else if (schema?.type === 'number' || schema?.type === 'integer') {
    values.push('1', 'NaN');
  } else if (schema?.type === 'array') {
    values.push(
      ['\u0000'],
      Array.from({ length: 2000 }, () => 'x'),
    );
  } else if (schema?.type === 'object') {
    values.push('{}');
  }
  return values;
}

/** A plausible body from the schema's examples, so one mutation at a time gets past the others. */
export function exampleOf(document: Json, node: Json | undefined, depth = 0): unknown {
  const schema = resolve(document, node);
  if (!schema || depth > 6) {
    return undefined;
  }
  if (schema.example !== undefined) {
    return schema.example;
  }
  if (schema.allOf?.length === 1) {
    return exampleOf(document, schema.allOf[0], depth + 1);
  }
  if (schema.oneOf?.length) {
    return exampleOf(document, schema.oneOf[0], depth + 1);
  }
  if (schema.enum?.length) {
    return schema.enum[0];
  }
  if (schema.type === 'array') {
    const item = exampleOf(document, schema.items as Json, depth + 1);
    return item === undefined ? [] : [item];
  }
  if (schema.properties) {
    return Object.fromEntries(
      Object.entries(schema.properties as Json)
        .map(([name, child]) => [name, exampleOf(document, child as Json, depth + 1)])
        .filter(([, value]) => value !== undefined),
    );
  }
  return schema.type === 'string' ? 'text' : schema.type === 'boolean' ? true : schema.type ? 1 : undefined;
}

/** Every field path of a schema (objects and first array items), with its schema. */
function fieldPaths(document: Json, node: Json | undefined, prefix: Array<string | number>, depth = 0) {
  const schema = resolve(document, node);
  const out: Array<{ path: Array<string | number>; schema: Json | undefined }> = [];
  if (!schema || depth > 4) {
    return out;
  }
  const inner = schema.allOf?.length === 1 ? resolve(document, schema.allOf[0] as Json) : schema;
  for (const [name, child] of Object.entries((inner?.properties ?? {}) as Json)) {
    const childSchema = resolve(document, child as Json);
    out.push({ path: [...prefix, name], schema: childSchema });
    out.push(...fieldPaths(document, childSchema, [...prefix, name], depth + 1));
    if (childSchema?.type === 'array') {
      out.push(...fieldPaths(document, childSchema.items as Json, [...prefix, name, 0], depth + 1));
    }
  }
  return out;
}

function setAt(base: unknown, path: Array<string | number>, value: unknown): unknown {
  const copy = JSON.parse(JSON.stringify(base ?? {})) as Json;
  let at: Json = copy;
  for (const [i, segment] of path.slice(0, -1).entries()) {
    if (at[segment] === null || typeof at[segment] !== 'object') {
      at[segment] = typeof path[i + 1] === 'number' ? [] : {};
    }
    at = at[segment] as Json;
  }
  Object.defineProperty(at, path[path.length - 1], {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
  return copy;
}

function describe(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 80)}… (${text.length} chars)` : text;
}

/** Picks at most `max` of `items`, the same ones on every run. */
function bounded<T>(items: T[], max: number, seed: number): T[] {
  if (items.length <= max) {
    return items;
  }
  return fc.sample(fc.shuffledSubarray(items, { minLength: max, maxLength: max }), { seed, numRuns: 1 })[0];
}

/** Whole bodies that are wrong before any field is read. */
const HOSTILE_BODIES: Array<{ body: string; contentType?: string; input: string }> = [
  { body: '[]', input: 'body []' },
  { body: 'null', input: 'body null' },
  { body: '"text"', input: 'body "text"' },
  { body: '{', input: 'truncated JSON' },
  { body: `${'['.repeat(5000)}${']'.repeat(5000)}`, input: '5,000 nested arrays' },
  { body: `{"a":${'{"a":'.repeat(5000)}1${'}'.repeat(5001)}`, input: '5,000 nested objects' },
  { body: '{"__proto__":{"polluted":"yes"}}', input: '__proto__ at the top' },
  { body: '{"constructor":{"prototype":{"polluted":"yes"}}}', input: 'constructor.prototype at the top' },
  { body: '{"a":"\\u0000"}', input: 'NUL in an unknown field' },
  { body: '{"a\\u0000":1}', input: 'NUL in a key' },
  {
    body: JSON.stringify(Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, i]))),
    input: '5,000 keys',
  },
  { body: JSON.stringify(Array.from({ length: 5000 }, (_, i) => i)), input: '5,000 items as the body' },
  { body: '{}', contentType: 'application/json; charset=latin1', input: 'charset latin1' },
  { body: '{}', contentType: 'application/json; charset=utf-16', input: 'charset utf-16' },
  { body: 'a=1', contentType: 'application/x-www-form-urlencoded', input: 'form-urlencoded body' },
  { body: '{}', contentType: 'text/plain', input: 'text/plain body' },
];

/**
 * Valid bodies beside the schema's example for operations whose body takes several shapes, so each
 * shape's fields are mutated one at a time too (the test helper's corporate action types).
 */
const EXTRA_BODY_BASES: Record<string, Json[]> = {
  testHelperAnnounceCorporateAction: [
    { type: 'symbol_change', symbol: 'AAPL', ex_date: '2049-03-08', new_symbol: 'NEWCO' },
    {
      type: 'cash_merger',
      symbol: 'AAPL',
      ex_date: '2049-03-08',
      cash_rate: '201.5',
      payable_date: '2049-03-10',
    },
    {
      type: 'stock_merger',
      symbol: 'AAPL',
      ex_date: '2049-03-08',
      new_symbol: 'MSFT',
      new_rate: '1',
      old_rate: '2',
      cash_rate: '3.25',
    },
  ],
};

/** Body mutations of one base: null in every field, a bounded sample of hostile values, random JSON. */
function bodyCases(
  document: Json,
  bodySchema: Json,
  base: unknown,
  seed: number,
): Array<Pick<FuzzCase, 'body' | 'input'>> {
  const mutations = fieldPaths(document, bodySchema, []).flatMap(({ path, schema }) =>
    hostileValues(schema).map((value) => ({ path, value })),
  );
  // fast-check adds random values (any JSON, any code points including NUL and lone surrogates).
  const fields = fieldPaths(document, bodySchema, []).map((f) => f.path);
  const randomValues = fc.sample(
    fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.string({ unit: 'binary', maxLength: 40 })),
    { seed, numRuns: 12 },
  );
  const random = fields.length
    ? randomValues.map((value, i) => ({ path: fields[(i * 7 + seed) % fields.length], value }))
    : [];
  // null for every field (a required value must never reach the service as null), beside the
  // bounded sample of the other values.
  const nulls = fieldPaths(document, bodySchema, []).map(({ path }) => ({ path, value: null }));
  const others = mutations.filter(({ value }) => value !== null);
  const shape = typeof (base as Json | null)?.type === 'string' ? `(${(base as Json).type}) ` : '';
  return [...nulls, ...bounded(others, MAX_BODY_CASES, seed), ...random].map(({ path, value }) => ({
    body: JSON.stringify(setAt(base, path, value)),
    input: `body ${shape}${path.join('.')}=${describe(value)}`,
  }));
}

/**
 * The hostile requests for one operation. `ids` gives a valid value for path parameters by name
 * (the rest get a placeholder), so body and query cases reach the handler.
 */
export function fuzzCases(
  document: Json,
  op: FuzzOperation,
  ids: Record<string, string>,
  seed: number,
): FuzzCase[] {
  const method = op.method.toUpperCase();
  const params = ((op.operation.parameters ?? []) as Json[]).map((p) => resolve(document, p) as Json);
  const pathNames = params.filter((p) => p.in === 'path').map((p) => p.name as string);
  const queryNames = params.filter((p) => p.in === 'query').map((p) => p.name as string);
  const fill = (overrides: Record<string, string> = {}) =>
    op.template.replace(/\{([^}]+)\}/g, (_m, name: string) =>
      name in overrides ? overrides[name] : encodeURIComponent(ids[name] ?? 'x'),
    );
  const cases: FuzzCase[] = [];
  const stream = Boolean(op.operation.responses?.['200']?.content?.['text/event-stream']);

  for (const name of pathNames) {
    for (const value of HOSTILE_IDS) {
      cases.push({ method, url: fill({ [name]: value }), input: `path ${name}=${describe(value)}` });
    }
  }
  const queries = bounded(queryNames.flatMap(hostileQueries), MAX_QUERY_CASES, seed);
  for (const query of [...queries, ...HOSTILE_EXTRA_QUERIES]) {
    cases.push({ method, url: `${fill()}?${query}`, input: `query ${describe(query)}`, stream });
  }
  if (method === 'GET' || method === 'DELETE') {
    return cases;
  }
  for (const hostile of HOSTILE_BODIES) {
    cases.push({ method, url: fill(), ...hostile });
  }
  const bodySchema = op.operation.requestBody?.content?.['application/json']?.schema as Json | undefined;
  if (!bodySchema) {
    return cases;
  }
  const bases = [
    exampleOf(document, bodySchema),
    ...(EXTRA_BODY_BASES[op.operation.operationId as string] ?? []),
  ];
  for (const [i, base] of bases.entries()) {
    cases.push(
      ...bodyCases(document, bodySchema, base, seed + i).map((c) => ({ method, url: fill(), ...c })),
    );
  }
  return cases;
}
