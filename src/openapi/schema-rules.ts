import type { OpenAPIObject } from '@nestjs/swagger';

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
  });
}
