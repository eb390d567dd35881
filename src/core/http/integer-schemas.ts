/**
 * OpenAPI schemas of the whole numbers the service answers, so every DTO publishes them as
 * `type: integer` with the same bounds (spec, Resource envelope: `created` is integer Unix seconds).
 */

/** Unix seconds, up to the end of year 9999. */
export const UNIX_SECONDS = { type: 'integer', format: 'int64', minimum: 0, maximum: 253402300799 } as const;

/** A count or size that fits a signed 32-bit integer. */
export const COUNT = { type: 'integer', format: 'int32', minimum: 0, maximum: 2147483647 } as const;

/** Basis points, 0 to 10,000 (100%). */
export const BASIS_POINTS = { type: 'integer', format: 'int32', minimum: 0, maximum: 10000 } as const;
