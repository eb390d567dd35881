import { ValidateBy, ValidationOptions } from 'class-validator';

export const METADATA_LIMITS = { keys: 50, keyLength: 40, valueLength: 500 };

/** Partner metadata: an object of up to 50 string values (keys up to 40, values up to 500 characters). */
export function IsMetadata(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isMetadata',
      validator: {
        validate: (value: unknown) =>
          typeof value === 'object' &&
          value !== null &&
          !Array.isArray(value) &&
          Object.keys(value).length <= METADATA_LIMITS.keys &&
          Object.entries(value).every(
            ([k, v]) =>
              k.length >= 1 &&
              k.length <= METADATA_LIMITS.keyLength &&
              typeof v === 'string' &&
              v.length <= METADATA_LIMITS.valueLength,
          ),
        defaultMessage: () =>
          `must be an object of at most ${METADATA_LIMITS.keys} string values ` +
          `(keys up to ${METADATA_LIMITS.keyLength} characters, values up to ${METADATA_LIMITS.valueLength})`,
      },
    },
    options,
  );
}
