import type { EntityManager } from 'typeorm';
import { BatchedPart, BatchedSqlCache, renumberParameters } from 'src/core/database/batched-sql';
import { preparedQuery } from 'src/core/database/prepared-query';

/** A read added to a batch; its row is there once the batch ran. */
export interface BatchedRead<T> {
  /** The first row the read found, or null. */
  row(): T | null;
}

class Part<T> implements BatchedRead<T>, BatchedPart {
  /** Set once the batch ran (null: no row). */
  found: T | null | undefined = undefined;

  constructor(
    readonly sql: string,
    readonly params: unknown[],
    /** Called with the row as soon as the batch ran, before the caller looks at any other read. */
    readonly check: ((row: T | null) => void) | undefined,
  ) {}

  row(): T | null {
    if (this.found === undefined) {
      throw new Error('This read is part of a batch that has not run yet.');
    }
    return this.found;
  }
}

/** Column `read_<i>` of the combined row, by position (names built once). */
const columnNames: string[] = [];
function columnName(i: number): string {
  return (columnNames[i] ??= `read_${i}`);
}

const combinedSql = new BatchedSqlCache((parts) => {
  let offset = 0;
  const columns = parts.map((part, i) => {
    const sql = renumberParameters(part.sql, part.params.length, offset, `Batched read ${i}`);
    offset += part.params.length;
    return `(SELECT to_jsonb(r) FROM (${sql}) r LIMIT 1) AS ${columnName(i)}`;
  });
  return `SELECT ${columns.join(', ')}`;
});

/**
 * Independent single-row reads of one request sent to PostgreSQL as one statement (one round trip
 * instead of one each): `SELECT (SELECT to_jsonb(r) FROM (<read 1>) r LIMIT 1), ...`. Each module
 * still reads its own tables with its own `$1..$n` parameters, renumbered here. A read may lock
 * its rows (FOR SHARE / FOR UPDATE) for the caller's transaction, as it would alone.
 *
 * The combined text is the same for every request of a route, so it is built once (per shape) and
 * runs as a prepared statement. Rows come back through JSON: select text, uuid, boolean and integer
 * columns (numeric and timestamps would arrive as JSON numbers and strings).
 */
export class ReadBatch {
  private parts: Part<unknown>[] = [];

  /**
   * Adds a read. `check`, when given, sees its row right after the batch ran and may throw (a
   * read that decides whether the request goes on at all, such as its Idempotency-Key).
   */
  add<T>(sql: string, params: unknown[], check?: (row: T | null) => void): BatchedRead<T> {
    const part = new Part<T>(sql, params, check);
    this.parts.push(part as Part<unknown>);
    return part;
  }

  /** True while some read added has not run yet. */
  get pending(): boolean {
    return this.parts.length > 0;
  }

  /** Runs every read added so far, in one round trip, then their checks in order. */
  async run(manager: EntityManager): Promise<void> {
    const parts = this.parts;
    if (parts.length === 0) {
      return;
    }
    this.parts = [];
    const params = parts.length === 1 ? parts[0].params : parts.flatMap((part) => part.params);
    const rows = await preparedQuery<Record<string, unknown>>(manager, combinedSql.text(parts), params);
    const row = rows[0];
    for (let i = 0; i < parts.length; i++) {
      parts[i].found = row[columnName(i)] ?? null;
    }
    for (const part of parts) {
      part.check?.(part.found);
    }
  }
}
