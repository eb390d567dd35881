import type { ValidationError } from 'class-validator';
import { ServiceError } from 'src/core/errors/service-error';

/** 400 SVC-400-001 without a param: validation failed but named no field (no failing constraint found). */
export class InvalidRequestError extends ServiceError {
  constructor() {
    super('SVC-400-001', 'Invalid request.');
  }
}

/** Finds the first failing leaf and its dotted path, with array indexes as `[i]`. */
function firstLeaf(
  errors: ValidationError[],
  prefix: string,
): { path: string; error: ValidationError } | undefined {
  for (const error of errors) {
    const segment = /^\d+$/.test(error.property) ? `[${error.property}]` : error.property;
    const path =
      prefix === '' ? segment : segment.startsWith('[') ? `${prefix}${segment}` : `${prefix}.${segment}`;
    if (error.constraints && Object.keys(error.constraints).length > 0) {
      return { path, error };
    }
    const nested = firstLeaf(error.children ?? [], path);
    if (nested) {
      return nested;
    }
  }
  return undefined;
}

/**
 * ValidationPipe's exceptionFactory: a missing value gives SVC-400-002, any other failure
 * SVC-400-001, both with `param` naming the field path.
 */
export function validationErrorFactory(errors: ValidationError[]): ServiceError {
  const leaf = firstLeaf(errors, '');
  if (!leaf) {
    return new InvalidRequestError();
  }
  const { path, error } = leaf;
  const constraints = error.constraints ?? {};
  if ('whitelistValidation' in constraints) {
    return ServiceError.invalid(path, `Unknown field ${path}.`);
  }
  if (error.value === undefined || error.value === null) {
    return ServiceError.missing(path, `Missing required field ${path}.`);
  }
  const messages = Object.values(constraints).map((m) => m.replace(/^\S+ /, ''));
  return ServiceError.invalid(path, `Invalid ${path}: ${messages.join('; ')}.`);
}
