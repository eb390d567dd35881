import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { validationErrorFactory } from 'src/core/errors/validation-error.factory';

/**
 * Validates a raw query string object against a DTO with the global ValidationPipe's options and
 * error rendering. Used where one route accepts two query shapes (asset search under /v1 and under the
 * legacy alias), so the shape can be chosen per request.
 */
export function validateQuery<T extends object>(dto: new () => T, raw: unknown): T {
  const instance = plainToInstance(dto, raw ?? {});
  const errors = validateSync(instance, {
    whitelist: true,
    forbidNonWhitelisted: true,
    validationError: { target: false, value: true },
  });
  if (errors.length > 0) {
    throw validationErrorFactory(errors);
  }
  return instance;
}
