import type { EntityManager } from 'typeorm';
import { renumberParameters } from 'src/core/database/batched-sql';
import { preparedResult } from 'src/core/database/prepared-query';

/** A read added to a batch; its row is there once the batch ran. */
export interface BatchedRead<T> {
  /** The first row the read found, or null. */
  row(): T | null;
}

interface Part {
  sql: string;
  params: unknown[];
  row: unknown;
  /** Called with the row as soon as the batch ran, before the caller looks at any other read. */
  check?: (row: unknown) => void;
}

/**
 * Independent single-row reads of one request sent to PostgreSQL as one statement (one round trip
 * instead of one each): `SELECT ... FROM (SELECT 1) one LEFT JOIN LATERAL (SELECT true AS found, r.*
 * FROM (<read 1>) r LIMIT 1) read_0 ON true LEFT JOIN LATERAL (...) read_1 ON true ...`. Each module
 * still reads its own tables with its own `$1..$n` parameters, renumbered here. A read may lock
 * its rows (FOR SHARE / FOR UPDATE) for the caller's transaction, as it would alone.
 *
 * Each read's columns come back as columns of the one result row, parsed by the driver as a query
 * of its own would be: numeric and bigint as exact strings, timestamps as Dates, json as values.
 * The `found` column before each read's columns tells a read that found no row (null) from one.
 *
 * The combined text is the same for every request of a route, so it runs as a prepared statement.
 */
export class ReadBatch {
  private readonly parts: Part[] = [];

  /**
   * Adds a read. `check`, when given, sees its row right after the batch ran and may throw (a
   * read that decides whether the request goes on at all, such as its Idempotency-Key).
   */
  add<T>(sql: string, params: unknown[], check?: (row: T | null) => void): BatchedRead<T> {
    const part: Part = { sql, params, row: undefined, check: check as Part['check'] };
    this.parts.push(part);
    return {
      row: () => {
        if (part.row === undefined) {
          throw new Error('This read is part of a batch that has not run yet.');
        }
        return part.row as T | null;
      },
    };
  }

  /** Runs every read added so far, in one round trip, then their checks in order. */
  async run(manager: EntityManager): Promise<void> {
    const parts = this.parts.splice(0);
    if (parts.length === 0) {
      return;
    }
    const params: unknown[] = [];
    const joins = parts.map((part, i) => {
      const offset = params.length;
      params.push(...part.params);
      const sql = renumberParameters(part.sql, part.params.length, offset, `Batched read ${i}`);
      return `LEFT JOIN LATERAL (SELECT true AS ${FOUND}, r.* FROM (${sql}) r LIMIT 1) read_${i} ON true`;
    });
    const result = await preparedResult(
      manager,
      `SELECT * FROM (SELECT 1) one ${joins.join(' ')}`,
      params,
      'array',
    );
    const rows = splitReads(result.fields, result.rows[0] as unknown[]);
    parts.forEach((part, i) => {
      part.row = rows[i];
    });
    for (const part of parts) {
      part.check?.(part.row);
    }
  }
}

/** The column each read's columns follow: true when the read found a row. */
const FOUND = 'batched_read_found';

/** The combined row cut back into each read's row (null where its `found` column is null). */
function splitReads(
  fields: Array<{ name: string }>,
  values: unknown[],
): Array<Record<string, unknown> | null> {
  const reads: Array<Record<string, unknown> | null> = [];
  let current: Record<string, unknown> | null = null;
  // fields[0] is the `1` of `one`.
  for (let i = 1; i < fields.length; i++) {
    if (fields[i].name === FOUND) {
      current = values[i] === true ? {} : null;
      reads.push(current);
    } else if (current) {
      current[fields[i].name] = values[i];
    }
  }
  return reads;
}
