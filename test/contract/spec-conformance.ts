import {
  LIST_ENVELOPE,
  OPERATIONS,
  RESOURCE_ENVELOPE,
  RESOURCE_TABLES,
  SECURITY_SCHEMES,
  SpecField,
  SpecOperation,
  SpecParameter,
  SpecType,
} from './spec-tables';

/**
 * Compares an OpenAPI document with the spec's tables (spec-tables.ts) and lists every difference,
 * one line each, in a stable wording (`Schema.field: what differs (spec: what it says)`), so a test
 * can hold the list to the deviations docs/decisions.md explains.
 */

type Json = Record<string, any>;

const REF = '#/components/schemas/';

export class SpecConformance {
  private readonly schemas: Record<string, Json>;

  constructor(private readonly document: Json) {
    this.schemas = (document.components?.schemas ?? {}) as Record<string, Json>;
  }

  /** Every difference once, in table order. */
  differences(): string[] {
    return [
      ...new Set([
        ...RESOURCE_TABLES.flatMap((table) => this.table(table.schema, table.fields)),
        ...this.envelopes(),
        ...OPERATIONS.flatMap((operation) => this.operation(operation)),
        ...this.security(),
      ]),
    ];
  }

  /** `$ref` and single-`allOf` wrappers followed to the schema they name. */
  private resolve(node: Json | undefined): Json | undefined {
    if (!node) {
      return undefined;
    }
    if (typeof node.$ref === 'string') {
      return this.resolve(this.schemas[(node.$ref as string).slice(REF.length)]);
    }
    if (Array.isArray(node.allOf) && node.allOf.length === 1) {
      return { ...this.resolve(node.allOf[0] as Json), ...node, allOf: undefined };
    }
    return node;
  }

  private table(name: string, fields: Record<string, SpecField>): string[] {
    const schema = this.schemas[name];
    if (!schema) {
      return [`${name}: no such schema`];
    }
    const properties = (schema.properties ?? {}) as Record<string, Json>;
    const required = new Set((schema.required ?? []) as string[]);
    const out: string[] = [];
    for (const [field, spec] of Object.entries(fields)) {
      const where = `${name}.${field}`;
      if (!properties[field]) {
        out.push(`${where}: missing`);
        continue;
      }
      out.push(...this.field(where, spec, properties[field]));
      if (spec.required && !required.has(field)) {
        out.push(`${where}: optional (spec: required)`);
      }
    }
    for (const field of Object.keys(properties)) {
      if (!(field in fields)) {
        out.push(`${name}.${field}: not in the spec's table`);
      }
    }
    return out;
  }

  /** Type, format, nullability and values of one field (or parameter schema). */
  private field(where: string, spec: SpecField, node: Json): string[] {
    const out: string[] = [];
    const schema = this.resolve(node) ?? {};
    const nullable = node.nullable === true || schema.nullable === true;
    if (spec.type) {
      const actual = typeName(schema);
      if (!typeMatches(spec.type, schema)) {
        out.push(`${where}: type ${actual} (spec: ${spec.type})`);
      }
      if (nullable && !spec.nullable && !spec.maybeNull) {
        out.push(`${where}: nullable (spec: not null)`);
      }
    }
    if (spec.nullable && !nullable) {
      out.push(`${where}: never null (spec: or null)`);
    }
    out.push(...values(where, spec, schema.enum as unknown[] | undefined));
    if (spec.items) {
      const items = this.resolve(schema.items as Json) ?? {};
      if (!typeMatches(spec.items.type, items)) {
        out.push(`${where}[]: type ${typeName(items)} (spec: ${spec.items.type})`);
      }
      out.push(...values(`${where}[]`, { enum: spec.items.enum }, items.enum as unknown[] | undefined));
    }
    return out;
  }

  /**
   * Resource and list envelopes (spec, Conventions): every schema whose `object` is one fixed value
   * carries the envelope keys; every list schema the list envelope.
   */
  private envelopes(): string[] {
    const out: string[] = [];
    for (const [name, schema] of Object.entries(this.schemas)) {
      const object = (schema.properties as Json | undefined)?.object as Json | undefined;
      const fixed = object?.enum as unknown[] | undefined;
      if (fixed?.length !== 1) {
        continue;
      }
      if (fixed[0] === 'list') {
        out.push(...this.table(name, { ...LIST_ENVELOPE, ...extraKeysOf(schema, LIST_ENVELOPE) }));
        continue;
      }
      const properties = schema.properties as Record<string, Json>;
      const present = Object.fromEntries(
        Object.entries(RESOURCE_ENVELOPE).filter(([key, spec]) => spec.required || key in properties),
      );
      out.push(...this.table(name, { ...present, ...extraKeysOf(schema, RESOURCE_ENVELOPE) }));
      const metadata = properties.metadata ? this.resolve(properties.metadata) : undefined;
      if (metadata && (metadata.additionalProperties as Json | undefined)?.type !== 'string') {
        out.push(`${name}.metadata: values are not strings (spec: object, string values)`);
      }
    }
    return out;
  }

  private operation(spec: SpecOperation): string[] {
    const where = `${spec.method.toUpperCase()} ${spec.path}`;
    const operation = (this.document.paths?.[spec.path] as Json | undefined)?.[spec.method] as
      Json | undefined;
    if (!operation) {
      return [`${where}: no such operation`];
    }
    const out: string[] = [];
    const parameters = ((operation.parameters ?? []) as Json[]).filter((p) => !p.$ref);
    for (const [name, param] of Object.entries(spec.parameters)) {
      const actual = parameters.find((p) => p.name === name && p.in === param.in);
      if (!actual) {
        out.push(`${where} ${param.in} ${name}: missing`);
        continue;
      }
      out.push(...this.parameter(`${where} ${param.in} ${name}`, param, actual));
    }
    for (const actual of parameters) {
      if (!spec.parameters[actual.name as string]) {
        out.push(`${where} ${actual.in} ${actual.name}: not in the spec`);
      }
    }
    if (spec.body) {
      const ref = operation.requestBody?.content?.['application/json']?.schema?.$ref as string | undefined;
      if (ref !== `${REF}${spec.body.schema}`) {
        out.push(`${where} body: ${ref ?? 'none'} (spec: ${spec.body.schema})`);
      }
      out.push(
        ...this.table(spec.body.schema, {
          ...spec.body.fields,
          ...extraKeysOf(this.schemas[spec.body.schema] ?? {}, spec.body.fields),
        }),
      );
    }
    if (spec.response) {
      out.push(...this.response(where, spec.response, operation));
    }
    return out;
  }

  private parameter(where: string, spec: SpecParameter, actual: Json): string[] {
    const out = this.field(where, spec, (actual.schema ?? {}) as Json);
    if ((actual.required === true) !== (spec.required === true)) {
      out.push(
        `${where}: ${actual.required ? 'required' : 'optional'} (spec: ${spec.required ? 'required' : 'optional'})`,
      );
    }
    for (const keyword of ['minimum', 'maximum', 'default'] as const) {
      const expected = spec[keyword];
      const published = (actual.schema as Json | undefined)?.[keyword] as unknown;
      if (expected !== undefined && published !== expected) {
        out.push(`${where}: ${keyword} ${JSON.stringify(published)} (spec: ${JSON.stringify(expected)})`);
      }
      if (expected === undefined && published !== undefined && keyword !== 'default') {
        out.push(`${where}: ${keyword} ${JSON.stringify(published)} (spec: none)`);
      }
    }
    return out;
  }

  private response(where: string, spec: NonNullable<SpecOperation['response']>, operation: Json): string[] {
    const status = Object.keys(operation.responses as Json).find((s) => /^2\d\d$/.test(s));
    const schema = status
      ? (operation.responses[status]?.content?.['application/json']?.schema as Json)
      : undefined;
    const refOf = (node: Json | undefined) =>
      typeof node?.$ref === 'string' ? (node.$ref as string).slice(REF.length) : undefined;
    if ('schema' in spec) {
      return refOf(schema) === spec.schema
        ? []
        : [`${where} answer: ${JSON.stringify(schema)} (spec: ${spec.schema})`];
    }
    if ('arrayOf' in spec) {
      return schema?.type === 'array' && refOf(schema.items as Json) === spec.arrayOf
        ? []
        : [`${where} answer: ${JSON.stringify(schema)} (spec: a bare array of ${spec.arrayOf})`];
    }
    const list = this.resolve(schema);
    const data = (list?.properties as Json | undefined)?.data as Json | undefined;
    return (list?.properties as Json | undefined)?.object?.enum?.[0] === 'list' &&
      refOf(data?.items as Json) === spec.listOf
      ? []
      : [`${where} answer: ${JSON.stringify(schema)} (spec: a list envelope of ${spec.listOf})`];
  }

  private security(): string[] {
    const schemes = (this.document.components?.securitySchemes ?? {}) as Json;
    return Object.entries(SECURITY_SCHEMES).flatMap(([name, expected]) =>
      Object.entries(expected)
        .filter(([key, value]) => schemes[name]?.[key] !== value)
        .map(
          ([key, value]) =>
            `securitySchemes.${name}.${key}: ${JSON.stringify(schemes[name]?.[key])} (spec: ${value})`,
        ),
    );
  }
}

/** Keys a schema has beyond an envelope's, as fields with nothing to compare (checked by their own table). */
function extraKeysOf(schema: Json, known: Record<string, SpecField>): Record<string, SpecField> {
  return Object.fromEntries(
    Object.keys((schema.properties ?? {}) as Json)
      .filter((key) => !(key in known))
      .map((key) => [key, {}]),
  );
}

function typeName(schema: Json): string {
  if (schema.type === undefined) {
    return schema.oneOf ? 'oneOf' : schema.anyOf ? 'anyOf' : 'untyped';
  }
  return schema.format ? `${schema.type}/${schema.format}` : String(schema.type);
}

function typeMatches(expected: SpecType, schema: Json): boolean {
  switch (expected) {
    case 'date':
    case 'date-time':
    case 'uuid':
      return schema.type === 'string' && schema.format === expected;
    case 'object':
      return schema.type === 'object' || (schema.type === undefined && schema.properties !== undefined);
    case 'string':
    case 'integer':
    case 'number':
    case 'boolean':
    case 'array':
      return schema.type === expected;
    default: {
      const unknownType: never = expected;
      throw new Error(`Unknown spec type ${String(unknownType)}`);
    }
  }
}

/** Closed enumerations must match exactly; listed values must each be allowed. */
function values(
  where: string,
  spec: Pick<SpecField, 'enum' | 'values'>,
  published: unknown[] | undefined,
): string[] {
  const out: string[] = [];
  const actual = (published ?? []).filter((v) => v !== null);
  if (spec.enum) {
    if (!published) {
      out.push(`${where}: no enumeration (spec: ${spec.enum.join(', ')})`);
      return out;
    }
    const missing = spec.enum.filter((v) => !actual.includes(v));
    const added = actual.filter((v) => !spec.enum!.includes(v as string | number));
    if (missing.length > 0) {
      out.push(`${where}: enumeration lacks ${missing.join(', ')}`);
    }
    if (added.length > 0) {
      out.push(`${where}: enumeration adds ${added.join(', ')}`);
    }
  }
  if (spec.values && published) {
    const missing = spec.values.filter((v) => !actual.includes(v));
    if (missing.length > 0) {
      out.push(`${where}: enumeration lacks ${missing.join(', ')}`);
    }
  }
  return out;
}
