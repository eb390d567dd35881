import type { MetadataStorage as TransformerStorage } from 'class-transformer/types/MetadataStorage';
import { getMetadataStorage, MetadataStorage, ValidationTypes } from 'class-validator';
import { ServiceError } from 'src/core/errors/service-error';

/** class-transformer's registry of @Type() decorators (the package exports it only by path). */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as {
  defaultMetadataStorage: TransformerStorage;
};

/** Where @ApiProperty() keeps a property's documented schema (@nestjs/swagger's metadata key). */
const DOCUMENTED_PROPERTY = 'swagger/apiModelProperties';

type ValidatedClass = Parameters<MetadataStorage['getTargetValidationMetadatas']>[0];

const NULL_MEANS_NOT_SENT = Symbol('null-means-not-sent');

/**
 * Marks a body class whose optional fields take null as "not sent" (nothing changes), as its
 * module decided: refuseUnknownAndNullFields then leaves its nulls to validation.
 */
export const NullMeansNotSent = (): ClassDecorator => (target) => {
  Reflect.defineMetadata(NULL_MEANS_NOT_SENT, true, target);
};

interface Field {
  /** The DTO class of a nested object (or of each item of a nested array). */
  nested: ValidatedClass | undefined;
  /**
   * Null is let through to validation: documented `nullable: true` (null clears the field), a
   * required field (validation answers 400 SVC-400-002 for it), or a class marked NullMeansNotSent.
   */
  nullAllowed: boolean;
}

interface Documented {
  nullable?: boolean;
  oneOf?: Documented[];
  anyOf?: Documented[];
}

/** Whether the document lets the field be null (itself, or one of its alternatives). */
function isNullable(documented: Documented | undefined): boolean {
  return (
    documented?.nullable === true ||
    (documented?.oneOf ?? []).some((d) => d.nullable === true) ||
    (documented?.anyOf ?? []).some((d) => d.nullable === true)
  );
}

/** The fields of each body class, read from its decorators once. */
const shapes = new WeakMap<ValidatedClass, Map<string, Field> | null>();

function hasRules(target: ValidatedClass): boolean {
  return getMetadataStorage().getTargetValidationMetadatas(target, '', true, false).length > 0;
}

/** A class's fields (every property with a validation rule), or null for a class without rules. */
function shapeOf(target: ValidatedClass): Map<string, Field> | null {
  let shape = shapes.get(target);
  if (shape === undefined) {
    const metadatas = getMetadataStorage().getTargetValidationMetadatas(target, '', true, false);
    if (metadatas.length === 0) {
      shape = null;
    } else {
      shape = new Map();
      const prototype = target.prototype as object;
      const nullMeansNotSent = Reflect.getMetadata(NULL_MEANS_NOT_SENT, target) === true;
      const optional = new Set(
        metadatas.filter((m) => m.type === ValidationTypes.CONDITIONAL_VALIDATION).map((m) => m.propertyName),
      );
      for (const property of new Set(metadatas.map((m) => m.propertyName))) {
        const type = defaultMetadataStorage.findTypeMetadata(target, property);
        const nested = type?.typeFunction() as ValidatedClass | undefined;
        const documented = Reflect.getMetadata(DOCUMENTED_PROPERTY, prototype, property) as
          Documented | undefined;
        shape.set(property, {
          nested: typeof nested === 'function' && hasRules(nested) ? nested : undefined,
          nullAllowed: nullMeansNotSent || !optional.has(property) || isNullable(documented),
        });
      }
    }
    shapes.set(target, shape);
  }
  return shape;
}

/**
 * 400 SVC-400-001 naming no field: the route takes a JSON object and the body is an array (a
 * scalar never gets here: the JSON body parser takes objects and arrays only). Refused before
 * class-transformer, which would build an instance of the body class for every item of the array
 * (999 objects of 99 keys cost ~200 ms of the event loop).
 */
export class BodyIsAnArrayError extends ServiceError {
  constructor() {
    super('SVC-400-001', 'The request body must be a JSON object, not an array.');
  }
}

function join(path: string, key: string | number): string {
  return typeof key === 'number' ? `${path}[${key}]` : path === '' ? key : `${path}.${key}`;
}

/**
 * One pass over a JSON body against its DTO class, before any transformation or per-field rule
 * runs: an unknown field anywhere (400 SVC-400-001 "Unknown field"), or null for an optional field
 * the document does not say is nullable (400 naming it; `@IsOptional()` would let null through to
 * the service and the database as a value), is refused at once. The walk visits each
 * key and item once (objects and arrays are bounded at parse time, MAX_OBJECT_KEYS and
 * MAX_ARRAY_ITEMS), so its cost is linear in the body, where class-transformer and
 * class-validator spend time growing with the square of the keys of an object.
 */
export function refuseUnknownAndNullFields(body: unknown, target: ValidatedClass, path = ''): void {
  const shape = shapeOf(target);
  if (!shape) {
    return;
  }
  if (path === '' && Array.isArray(body)) {
    throw new BodyIsAnArrayError();
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return;
  }
  for (const key of Object.keys(body)) {
    const field = shape.get(key);
    const at = join(path, key);
    if (!field) {
      throw ServiceError.invalid(at, `Unknown field ${at}.`);
    }
    const value = (body as Record<string, unknown>)[key];
    if (value === null) {
      if (!field.nullAllowed) {
        throw ServiceError.invalid(
          at,
          `Invalid ${at}: null is not accepted here; leave the field out instead.`,
        );
      }
    } else if (field.nested && typeof value === 'object') {
      if (Array.isArray(value)) {
        value.forEach((item: unknown, i) => refuseUnknownAndNullFields(item, field.nested!, join(at, i)));
      } else {
        refuseUnknownAndNullFields(value, field.nested, at);
      }
    }
  }
}
