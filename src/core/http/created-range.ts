import { applyDecorators } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { ServiceError } from 'src/core/errors/service-error';

const RANGE_OPERATORS = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;
const RANGE_WORDS = { gte: 'at or after', gt: 'after', lte: 'at or before', lt: 'before' } as const;

/** `created[gte]` and its siblings, documented as the separate query parameters clients send. */
export function ApiCreatedRange(what: string): MethodDecorator {
  return applyDecorators(
    ...Object.entries(RANGE_WORDS).map(([op, words]) =>
      ApiQuery({
        name: `created[${op}]`,
        required: false,
        schema: {
          type: 'integer',
          format: 'int64',
          minimum: 0,
          maximum: 999_999_999_999,
          example: 1763790000,
        },
        description: `Only ${what} created ${words} this Unix time (seconds).`,
      }),
    ),
  );
}

/** Adds `created[op]` bounds (Unix seconds) on `<alias>.created_at`; bad keys or values name the parameter. */
export function applyCreatedRange<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  created: Record<string, unknown> | undefined,
): void {
  for (const [key, value] of Object.entries(created ?? {})) {
    const op = RANGE_OPERATORS[key as keyof typeof RANGE_OPERATORS];
    const param = `created[${key}]`;
    if (!op) {
      throw ServiceError.invalid(
        param,
        `Unknown filter ${param}: use created[gte], created[gt], created[lte] or created[lt].`,
      );
    }
    if (typeof value !== 'string' || !/^\d{1,12}$/.test(value)) {
      throw ServiceError.invalid(param, `Invalid ${param}: must be a Unix time in seconds.`);
    }
    // Seconds bound inclusive of the whole second for lte/gt; created_at carries milliseconds.
    const bound = new Date(Number(value) * 1000 + (key === 'lte' || key === 'gt' ? 999 : 0));
    qb.andWhere(`${qb.alias}.created_at ${op} :${key}CreatedBound`, { [`${key}CreatedBound`]: bound });
  }
}
