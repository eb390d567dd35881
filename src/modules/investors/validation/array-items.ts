import { ServiceError } from 'src/core/errors/service-error';

/**
 * Checks each item of an array field and names the first bad one with its index
 * (`contact.address.street[1]`), which class-validator's `each` option cannot do.
 */
export function assertItems<T>(
  items: readonly T[] | undefined,
  param: string,
  check: (item: T) => string | undefined,
  options: { unique?: boolean } = {},
): void {
  if (!items) {
    return;
  }
  items.forEach((item, i) => {
    const problem = check(item);
    if (problem) {
      throw ServiceError.invalid(`${param}[${i}]`, `Invalid ${param}[${i}]: ${problem}.`);
    }
  });
  if (!options.unique) {
    return;
  }
  const seen = new Set<string>();
  items.forEach((item, i) => {
    const key = JSON.stringify(item);
    if (seen.has(key)) {
      throw ServiceError.invalid(`${param}[${i}]`, `Invalid ${param}[${i}]: duplicate of an earlier item.`);
    }
    seen.add(key);
  });
}

export function oneOf(values: readonly string[]): (item: unknown) => string | undefined {
  return (item) =>
    typeof item === 'string' && values.includes(item) ? undefined : `must be one of ${values.join(', ')}`;
}

export function textOfLength(min: number, max: number): (item: unknown) => string | undefined {
  return (item) =>
    typeof item === 'string' && item.trim().length >= min && item.length <= max
      ? undefined
      : `must be a string of ${min} to ${max} characters`;
}
