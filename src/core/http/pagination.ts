import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { ServiceError } from 'src/core/errors/service-error';

/** Cursor pagination query of envelope-style lists (Stripe style). */
export class CursorPageQuery {
  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 50, description: 'Page size, 1 to 100.' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;

  @ApiPropertyOptional({ description: 'An object id: returns the page after it (older objects).' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  starting_after?: string;

  @ApiPropertyOptional({ description: 'An object id: returns the page before it (newer objects).' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  ending_before?: string;
}

/** Largest `offset` of an offset-paged list: beyond it a page is refused 400 naming `offset`. */
export const MAX_OFFSET = 1_000_000;

/** Offset pagination of account-style lists (spec, order list). */
export class OffsetPageQuery {
  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 50 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;

  @ApiPropertyOptional({
    minimum: 0,
    maximum: MAX_OFFSET,
    default: 0,
    description: `Items to skip, 0 to ${MAX_OFFSET.toLocaleString('en-US')} (filter by date to reach further back).`,
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(MAX_OFFSET)
  offset?: number;
}

export interface CursorPage<T> {
  data: T[];
  hasMore: boolean;
}

/**
 * Newest-first keyset pagination over (created_at, key). The caller's query builder already
 * carries the tenant/livemode/filters; this adds the cursor, order and limit. `key` is the unique
 * column the cursor names: the row's id, or another object's id the row carries one to one (an
 * account listed as its investor).
 */
export async function paginateByCursor<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  query: CursorPageQuery,
  defaultLimit = 50,
  key = 'id',
): Promise<CursorPage<T>> {
  const alias = qb.alias;
  const limit = query.limit ?? defaultLimit;
  if (query.starting_after && query.ending_before) {
    throw ServiceError.invalid('ending_before', 'Send starting_after or ending_before, not both.');
  }
  const cursorId = query.starting_after ?? query.ending_before;
  if (cursorId) {
    const exists = await qb
      .clone()
      .select(`${alias}.${key}`)
      .andWhere(`${alias}.${key} = :cursorId`, { cursorId })
      .getCount();
    if (exists === 0) {
      throw ServiceError.invalid(
        query.starting_after ? 'starting_after' : 'ending_before',
        `No such object: '${cursorId}'.`,
      );
    }
    // The cursor's created_at is compared inside PostgreSQL: read into a JS Date it would lose
    // its microseconds and the cursor row would match itself.
    const table = qb.expressionMap.mainAlias!.metadata.tablePath;
    const op = query.starting_after ? '<' : '>';
    qb.andWhere(
      `(${alias}.created_at, ${alias}.${key}) ${op} ((SELECT c.created_at FROM "${table}" c WHERE c.${key} = :cursorId), :cursorId)`,
      { cursorId },
    );
  }
  const ascending = Boolean(query.ending_before);
  qb.orderBy(`${alias}.created_at`, ascending ? 'ASC' : 'DESC')
    .addOrderBy(`${alias}.${key}`, ascending ? 'ASC' : 'DESC')
    .take(limit + 1);
  const rows = await qb.getMany();
  const hasMore = rows.length > limit;
  const page = rows.slice(0, limit);
  return { data: ascending ? page.reverse() : page, hasMore };
}
