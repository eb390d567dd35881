import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { validationErrorFactory } from 'src/core/errors/validation-error.factory';

/** Valid queries kept per shape (whole set dropped when full), and the longest query text kept. */
const KEPT_PER_SHAPE = 1000;
const LONGEST_KEPT = 512;
const validQueries = new WeakMap<object, Map<string, object>>();

/**
 * Validates a raw query string object against a DTO with the global ValidationPipe's options and
 * error rendering. Used where one route accepts two query shapes (asset search under /v1 and under the
 * legacy alias), so the shape can be chosen per request.
 *
 * The outcome depends on the query's content only (strings, arrays and objects from the query
 * parser), so valid queries are kept by their JSON text: a search typed again skips class-transformer
 * and class-validator. The instance returned is shared and frozen.
 */
export function validateQuery<T extends object>(dto: new () => T, raw: unknown): T {
  const text = JSON.stringify(raw ?? {});
  let kept = validQueries.get(dto);
  const known = kept?.get(text);
  if (known) {
    return known as T;
  }
  const instance = plainToInstance(dto, raw ?? {});
  const errors = validateSync(instance, {
    whitelist: true,
    forbidNonWhitelisted: true,
    validationError: { target: false, value: true },
  });
  if (errors.length > 0) {
    throw validationErrorFactory(errors);
  }
  Object.freeze(instance);
  if (text.length <= LONGEST_KEPT) {
    if (!kept) {
      kept = new Map();
      validQueries.set(dto, kept);
    }
    if (kept.size >= KEPT_PER_SHAPE) {
      kept.clear();
    }
    kept.set(text, instance);
  }
  return instance;
}
