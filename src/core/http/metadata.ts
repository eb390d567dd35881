import { registerDecorator, ValidationArguments, ValidationOptions } from 'class-validator';

/** Partner-set metadata of envelope-style resources, shared by every surface. */
export const METADATA_MAX_KEYS = 50;
const METADATA_KEY_MAX = 40;
export const METADATA_VALUE_MAX = 500;

/**
 * Partner metadata (Stripe's rules): up to 50 keys of at most 40 characters, string values of
 * at most 500 characters. In updates an empty string removes the key.
 */
export function IsMetadata(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isMetadata',
      target: target.constructor,
      propertyName: propertyName as string,
      options,
      validator: {
        validate(value: unknown) {
          if (typeof value !== 'object' || value === null || Array.isArray(value)) {
            return false;
          }
          const entries = Object.entries(value as Record<string, unknown>);
          return (
            entries.length <= METADATA_MAX_KEYS &&
            entries.every(
              ([k, v]) =>
                k.length >= 1 &&
                k.length <= METADATA_KEY_MAX &&
                !k.includes('[') &&
                typeof v === 'string' &&
                v.length <= METADATA_VALUE_MAX,
            )
          );
        },
        defaultMessage: (args: ValidationArguments) =>
          `${args.property} must be an object of at most ${METADATA_MAX_KEYS} keys (1-${METADATA_KEY_MAX} ` +
          `characters) with string values of at most ${METADATA_VALUE_MAX} characters`,
      },
    });
}

/** Applies a metadata update: keys set to "" are removed (Stripe semantics). */
export function mergeMetadata(
  current: Record<string, string>,
  update: Record<string, string> | undefined,
): Record<string, string> {
  if (!update) {
    return current;
  }
  const merged = { ...current };
  for (const [key, value] of Object.entries(update)) {
    if (value === '') {
      delete merged[key];
    } else {
      merged[key] = value;
    }
  }
  return merged;
}
