import type { OpenAPIObject } from '@nestjs/swagger';
import { getMetadataStorage } from 'class-validator';
import { METADATA_MAX_KEYS, METADATA_VALUE_MAX } from 'src/core/http/metadata';
import { MAX_PATH_PARAM_LENGTH, MAX_QUERY_VALUE_LENGTH } from 'src/core/http/request-text';

/**
 * Rules applied to every schema of the generated document, so routes added later inherit them.
 * Each rule fixes what the decorators alone would publish wrongly or loosely.
 */

type Schema = Record<string, any>;

const CHILD_SCHEMAS = ['items', 'not', 'additionalProperties'];
const SCHEMA_LISTS = ['allOf', 'oneOf', 'anyOf'];

/** Calls `visit` on every schema below `schema` (itself included), depth first, children first. */
export function walkSchema(schema: unknown, visit: (schema: Schema) => void): void {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) {
    return;
  }
  const node = schema as Schema;
  for (const child of Object.values((node.properties ?? {}) as Schema)) {
    walkSchema(child, visit);
  }
  for (const key of CHILD_SCHEMAS) {
    walkSchema(node[key], visit);
  }
  for (const key of SCHEMA_LISTS) {
    for (const child of (node[key] ?? []) as unknown[]) {
      walkSchema(child, visit);
    }
  }
  visit(node);
}

/** Every schema of the document: components, parameters, request bodies and responses. */
export function eachSchema(document: OpenAPIObject, visit: (schema: Schema, where: SchemaSite) => void): void {
  for (const schema of Object.values(document.components?.schemas ?? {})) {
    walkSchema(schema, (s) => visit(s, 'component'));
  }
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item as Schema)) {
      if (!operation || typeof operation !== 'object' || !('responses' in operation)) {
        continue;
      }
      for (const parameter of (operation.parameters ?? []) as Schema[]) {
        walkSchema(parameter.schema, (s) => visit(s, 'request'));
      }
      for (const media of Object.values((operation.requestBody?.content ?? {}) as Schema)) {
        walkSchema(media.schema, (s) => visit(s, 'request'));
      }
      for (const response of Object.values(operation.responses as Schema)) {
        for (const media of Object.values((response.content ?? {}) as Schema)) {
          walkSchema(media.schema, (s) => visit(s, 'response'));
        }
      }
    }
  }
}

export type SchemaSite = 'component' | 'request' | 'response';

/**
 * A nullable property that refers to another schema comes out of the generator as
 * `{type: object, nullable: true, allOf: [{$ref}]}`. In OpenAPI 3.0.3 `nullable` only widens the
 * `type` beside it, and the `allOf` still refuses null, so strict validators and generated
 * clients reject the null the service sends. Such properties get the referenced object's
 * definition inline, which is nullable for real.
 */
export function inlineNullableReferences(document: OpenAPIObject): void {
  const components = (document.components?.schemas ?? {}) as Record<string, Schema>;
  const inlined = new Set<string>();
  eachSchema(document, (schema) => {
    const refs = schema.allOf as Schema[] | undefined;
    if (schema.nullable !== true || refs?.length !== 1 || typeof refs[0].$ref !== 'string') {
      return;
    }
    const target = components[(refs[0].$ref as string).replace('#/components/schemas/', '')];
    if (!target) {
      return;
    }
    delete schema.allOf;
    const own = { ...schema };
    Object.assign(schema, JSON.parse(JSON.stringify(target)) as Schema, own, { type: 'object', nullable: true });
    inlined.add((refs[0].$ref as string).replace('#/components/schemas/', ''));
  });
  // A component now only copied inline is no longer published on its own.
  const text = JSON.stringify(document);
  for (const name of inlined) {
    if (!text.includes(`"#/components/schemas/${name}"`)) {
      delete components[name];
    }
  }
}

/** The limits of class-validator decorators that become OpenAPI keywords. */
const LIMIT_KEYWORDS: Record<string, (c: unknown[]) => Schema> = {
  maxLength: (c) => ({ maxLength: c[0] }),
  minLength: (c) => ({ minLength: c[0] }),
  isLength: (c) => ({ minLength: c[0], ...(c[1] !== undefined ? { maxLength: c[1] } : {}) }),
  arrayMaxSize: (c) => ({ maxItems: c[0] }),
  arrayMinSize: (c) => ({ minItems: c[0] }),
  max: (c) => ({ maximum: c[0] }),
  min: (c) => ({ minimum: c[0] }),
  isIp: () => ({ maxLength: 45 }),
  isISO4217CurrencyCode: () => ({ minLength: 3, maxLength: 3 }),
  isCountryAlpha2: () => ({ minLength: 2, maxLength: 2 }),
};

/**
 * One decorator, two truths: the length, size and range limits a DTO enforces with class-validator
 * (`@Length`, `@MaxLength`, `@ArrayMaxSize`, `@Max`, ...) are published on its schema, where the
 * swagger decorator did not already say so. DTOs added later are covered without a swagger option.
 */
export function publishValidationLimits(document: OpenAPIObject): void {
  const schemas = (document.components?.schemas ?? {}) as Record<string, Schema>;
  const storage = getMetadataStorage();
  // Every class with validation rules of its own; rules inherited from parents (PartialType,
  // PickType) are read through getTargetValidationMetadatas.
  const targets = (storage as unknown as { validationMetadatas?: Map<new (...args: never[]) => unknown, unknown> }).validationMetadatas;
  for (const target of targets?.keys() ?? []) {
    const properties = schemas[target.name]?.properties as Record<string, Schema> | undefined;
    if (!properties) {
      continue;
    }
    for (const metadata of storage.getTargetValidationMetadatas(target, '', true, false)) {
      const limits = metadata.name ? LIMIT_KEYWORDS[metadata.name] : undefined;
      const property = properties[metadata.propertyName];
      const schema = metadata.each ? (property?.items as Schema | undefined) : property;
      if (!limits || !schema || '$ref' in schema) {
        continue;
      }
      for (const [keyword, value] of Object.entries(limits(metadata.constraints))) {
        schema[keyword] ??= value;
      }
    }
  }
}

const API_MODEL_PROPERTIES = 'swagger/apiModelProperties';

/**
 * A property validated with `@IsInt()` is a whole number: its swagger metadata says `integer`
 * wherever it says `number` (or leaves the type to TypeScript's `number`), before the document is
 * built, so query parameters, bodies and the classes mapped from them (PartialType, PickType) all
 * publish `type: integer`. DTOs added later are covered without a swagger option.
 */
export function declareValidatedIntegers(): void {
  const storage = getMetadataStorage();
  const targets = (storage as unknown as { validationMetadatas?: Map<new (...args: never[]) => unknown, unknown> }).validationMetadatas;
  for (const target of targets?.keys() ?? []) {
    for (const metadata of storage.getTargetValidationMetadatas(target, '', true, false)) {
      if (metadata.name !== 'isInt') {
        continue;
      }
      const prototype = target.prototype as object;
      const options = Reflect.getMetadata(API_MODEL_PROPERTIES, prototype, metadata.propertyName) as Schema | undefined;
      if (options && (options.type === undefined || options.type === Number || options.type === 'number')) {
        Reflect.defineMetadata(API_MODEL_PROPERTIES, { ...options, type: 'integer' }, prototype, metadata.propertyName);
      }
    }
  }
}

/**
 * Partner metadata maps (`metadata`: string values) publish the limits every route enforces
 * (IsMetadata): at most 50 keys, values of at most 500 characters.
 */
export function boundMetadataMaps(document: OpenAPIObject): void {
  eachSchema(document, (schema) => {
    const metadata = (schema.properties as Record<string, Schema> | undefined)?.metadata;
    const values = metadata?.additionalProperties as Schema | undefined;
    if (metadata?.type === 'object' && values?.type === 'string') {
      metadata.maxProperties ??= METADATA_MAX_KEYS;
      values.maxLength ??= METADATA_VALUE_MAX;
    }
  });
}

/**
 * Integers say their width: int32 when their bounds fit in 32 bits, int64 otherwise, so generated
 * clients pick a type that holds every value.
 */
export function declareIntegerFormats(document: OpenAPIObject): void {
  eachSchema(document, (schema) => {
    if (schema.type !== 'integer' || schema.format !== undefined) {
      return;
    }
    const fits = (n: unknown) => typeof n === 'number' && n >= -(2 ** 31) && n <= 2 ** 31 - 1;
    schema.format = fits(schema.minimum) && fits(schema.maximum) ? 'int32' : 'int64';
  });
}

/**
 * Path and query parameters without a length of their own publish the limits every route
 * enforces (RequestTextPipe, queryTextCheck).
 */
export function boundParameters(document: OpenAPIObject): void {
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item as Schema)) {
      for (const parameter of ((operation as Schema)?.parameters ?? []) as Schema[]) {
        const schema = parameter.schema as Schema | undefined;
        if (schema?.type !== 'string' || schema.maxLength !== undefined || schema.enum || schema.format) {
          continue;
        }
        if (parameter.in === 'path') {
          schema.maxLength = MAX_PATH_PARAM_LENGTH;
        } else if (parameter.in === 'query') {
          schema.maxLength = MAX_QUERY_VALUE_LENGTH;
        }
      }
    }
  }
}

/** Names of the component schemas a request body refers to, directly or through other schemas. */
function requestSchemaNames(document: OpenAPIObject): Set<string> {
  const components = (document.components?.schemas ?? {}) as Record<string, Schema>;
  const names = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach(visit);
    } else if (node && typeof node === 'object') {
      const ref = (node as Schema).$ref;
      if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
        const name = ref.slice('#/components/schemas/'.length);
        if (!names.has(name)) {
          names.add(name);
          visit(components[name]);
        }
      }
      Object.values(node).forEach(visit);
    }
  };
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item as Schema)) {
      visit((operation as Schema)?.requestBody);
    }
  }
  return names;
}

/**
 * A request field with a default is optional: the service fills it in. Generators such as
 * openapi-typescript (defaultNonNullable, on by default) make every property with a `default`
 * required in the generated type, so request schemas state the default in the description
 * instead of the keyword. Update bodies (`*Update*`, PATCH semantics) leave unsent fields as they
 * are, so the defaults they inherit from the create body are dropped.
 */
export function describeRequestDefaults(document: OpenAPIObject): void {
  const components = (document.components?.schemas ?? {}) as Record<string, Schema>;
  for (const name of requestSchemaNames(document)) {
    const schema = components[name];
    for (const [property, field] of Object.entries((schema?.properties ?? {}) as Record<string, Schema>)) {
      if (field.default === undefined) {
        continue;
      }
      const value = JSON.stringify(field.default);
      delete field.default;
      schema.required = ((schema.required ?? []) as string[]).filter((r) => r !== property);
      if (schema.required.length === 0) {
        delete schema.required;
      }
      if (!name.includes('Update')) {
        field.description = `${field.description ? `${field.description} ` : ''}Default when omitted: \`${value}\`.`;
      }
    }
  }
}
