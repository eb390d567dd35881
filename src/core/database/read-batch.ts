import type { EntityManager } from 'typeorm';
import { renumberParameters } from 'src/core/database/batched-sql';
import { preparedQuery } from 'src/core/database/prepared-query';

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
 * instead of one each): `SELECT (SELECT to_jsonb(r) FROM (<read 1>) r LIMIT 1), ...`. Each module
 * still reads its own tables with its own `$1..$n` parameters, renumbered here. A read may lock
 * its rows (FOR SHARE / FOR UPDATE) for the caller's transaction, as it would alone.
 *
 * The combined text is the same for every request of a route, so it runs as a prepared statement.
 * Rows come back through JSON: select text, uuid, boolean and integer columns (numeric and
 * timestamps would arrive as JSON numbers and strings).
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
    const columns = parts.map((part, i) => {
      const offset = params.length;
      params.push(...part.params);
      const sql = renumberParameters(part.sql, part.params.length, offset, `Batched read ${i}`);
      return `(SELECT to_jsonb(r) FROM (${sql}) r LIMIT 1) AS read_${i}`;
    });
    const rows = await preparedQuery<Record<string, unknown>>(
      manager,
      `SELECT ${columns.join(', ')}`,
      params,
    );
    parts.forEach((part, i) => {
      part.row = rows[0][`read_${i}`] ?? null;
    });
    for (const part of parts) {
      part.check?.(part.row);
    }
  }
}
