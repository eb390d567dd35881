import { ArgumentMetadata, ValidationPipe } from '@nestjs/common';
import {
  getMetadataStorage,
  MetadataStorage,
  ValidationError,
  ValidationTypes,
  ValidatorOptions,
} from 'class-validator';
import { validationErrorFactory } from 'src/core/errors/validation-error.factory';
import { refuseUnknownAndNullFields } from 'src/core/http/body-shape';
import { passesValidationCleanly } from 'src/core/http/clean-body-check';
import { installValidationMetadataCache } from 'src/core/http/validation-metadata-cache';

/** A property validated as a nested object: `arrayAllowed` when declared as an array or validated with `each`. */
interface NestedProperty {
  property: string;
  arrayAllowed: boolean;
}

/**
 * The nested properties of each class, read from its decorators once: a class's rules are fixed
 * when it is defined, and reading them is a filter over every class's rules.
 */
const nestedPropertiesByClass = new WeakMap<ValidatedClass, NestedProperty[]>();

type ValidatedClass = Parameters<MetadataStorage['getTargetValidationMetadatas']>[0];

function nestedPropertiesOf(target: ValidatedClass): NestedProperty[] {
  let properties = nestedPropertiesByClass.get(target);
  if (!properties) {
    const nested = getMetadataStorage()
      .getTargetValidationMetadatas(target, '', true, false)
      .filter((m) => m.type === ValidationTypes.NESTED_VALIDATION);
    properties = [...new Set(nested.map((m) => m.propertyName))].map((property) => ({
      property,
      arrayAllowed:
        Reflect.getMetadata('design:type', target.prototype as object, property) === Array ||
        nested.some((m) => m.propertyName === property && m.each),
    }));
    nestedPropertiesByClass.set(target, properties);
  }
  return properties;
}

/**
 * Finds nested-object properties (`@ValidateNested()` on a property typed as a class) that hold an
 * array. class-validator validates each item of an array it meets there, so `contact: []` would
 * pass as "no items" and reach the service as an array.
 */
function arraysWhereObjectsBelong(object: object, seen = new Set<object>()): ValidationError[] {
  if (seen.has(object)) {
    return [];
  }
  seen.add(object);
  if (Array.isArray(object)) {
    return object.flatMap((item: unknown, index) => {
      const children = item && typeof item === 'object' ? arraysWhereObjectsBelong(item, seen) : [];
      return children.length > 0 ? [nestedError(String(index), item, children)] : [];
    });
  }
  const errors: ValidationError[] = [];
  for (const { property, arrayAllowed } of nestedPropertiesOf(object.constructor)) {
    const value = (object as Record<string, unknown>)[property];
    if (Array.isArray(value) && !arrayAllowed) {
      errors.push(
        Object.assign(new ValidationError(), {
          property,
          value,
          constraints: { isObject: `${property} must be an object, not an array` },
          children: [],
        }),
      );
    } else if (value && typeof value === 'object') {
      const children = arraysWhereObjectsBelong(value, seen);
      if (children.length > 0) {
        errors.push(nestedError(property, value, children));
      }
    }
  }
  return errors;
}

function nestedError(property: string, value: unknown, children: ValidationError[]): ValidationError {
  return Object.assign(new ValidationError(), { property, value, children });
}

/**
 * The global ValidationPipe: unknown fields refused, values transformed to the DTO's types,
 * failures as SVC-400-001/002 naming the field path, and an array where an object belongs
 * refused like any other wrong type. A body is first checked in one linear pass for unknown
 * fields and for null where its field is not nullable (refuseUnknownAndNullFields), before
 * class-transformer and class-validator spend per-field work on it.
 */
export class ServiceValidationPipe extends ValidationPipe {
  constructor() {
    installValidationMetadataCache();
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      exceptionFactory: validationErrorFactory,
      validationError: { target: false, value: true },
    });
  }

  override transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' && typeof metadata.metatype === 'function') {
      refuseUnknownAndNullFields(value, metadata.metatype);
    }
    return super.transform(value, metadata) as Promise<unknown>;
  }

  protected override validate(
    object: object,
    validatorOptions?: ValidatorOptions,
  ): Promise<ValidationError[]> | ValidationError[] {
    const misplaced = arraysWhereObjectsBelong(object);
    if (misplaced.length > 0) {
      return misplaced;
    }
    // A body every rule accepts needs none of class-validator's error tree (clean-body-check.ts);
    // any other goes to class-validator, which writes the errors.
    return passesValidationCleanly(object, validatorOptions) ? [] : super.validate(object, validatorOptions);
  }
}
