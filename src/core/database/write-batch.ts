import type { EntityManager } from 'typeorm';
import { renumberParameters } from 'src/core/database/batched-sql';
import { preparedQuery } from 'src/core/database/prepared-query';

/** A statement added to a batch: its CTE name, for later statements of the batch to read from. */
export interface BatchedStatement {
  readonly name: string;
}

/** The one row a batched statement changes: its table and a key naming the row in that table. */
export interface ChangedRow {
  table: string;
  /** The row's id, or the unique key an INSERT ... ON CONFLICT is about (`tenant:mode:key`). */
  key: string;
}

/** A statement for a batch: one data-modifying statement that returns rows (RETURNING). */
export interface BatchedWrite {
  /** `$1..$n` are `params`; the name of an earlier statement may be interpolated to read its rows. */
  sql: string;
  params: unknown[];
  /** The row it changes: no other statement of the batch may change the same row. */
  changes: ChangedRow;
  /** Called with the number of rows the statement returned, once the batch ran (may throw). */
  check?: (rows: number) => void;
}

interface Part extends BatchedWrite {
  name: string;
}

/**
 * Writes of one transaction sent to PostgreSQL as one statement: each one a data-modifying CTE
 * (`INSERT ... RETURNING ...`, `UPDATE ... RETURNING ...`), so a request that writes a row in five
 * tables pays one round trip instead of five. Each module still writes its own tables: it adds its
 * statement with its own `$1..$n` parameters, which are renumbered here.
 *
 * PostgreSQL runs every data-modifying CTE exactly once, all on the same snapshot: a statement
 * does not see the rows another statement of the batch writes, except through the CTE name of that
 * statement (`FROM <name>`), and no two statements may change the same row (each names the row it
 * changes, and `add` refuses a second statement on it). Foreign keys are checked
 * at the end of the statement, so a row may reference one inserted by an earlier statement.
 *
 * The combined text is the same for every request of a route, so it runs as a prepared statement.
 *
 * A statement's `check` sees how many rows it returned (so a conditional UPDATE that matched
 * nothing can throw, rolling back the caller's transaction): the batch must run inside a
 * transaction whenever a check can fail.
 */
export class WriteBatch {
  private readonly parts: Part[] = [];

  get size(): number {
    return this.parts.length;
  }

  /**
   * Adds a statement. A second statement changing a row the batch already changes is refused at
   * once (a programming error): PostgreSQL would run both on the same snapshot and keep only one
   * of the changes, silently.
   */
  add(write: BatchedWrite): BatchedStatement {
    const { table, key } = write.changes;
    const twin = this.parts.find((part) => part.changes.table === table && part.changes.key === key);
    if (twin) {
      throw new Error(
        `Two statements of one write batch change ${table} row ${key} (${twin.name} and another): ` +
          'PostgreSQL would apply only one of them. Run the batch between them, or make them one statement.',
      );
    }
    const name = `batched_${this.parts.length}`;
    // Not `{ ...write, name }`: once optimized, V8 gives every object made by that spread a hidden
    // class of its own, and each read of a part then misses V8's caches.
    this.parts.push({
      sql: write.sql,
      params: write.params,
      changes: write.changes,
      check: write.check,
      name,
    });
    return { name };
  }

  /** Runs every statement added so far (in one round trip) and their checks, in order. */
  async run(manager: EntityManager): Promise<void> {
    const parts = this.parts.splice(0);
    if (parts.length === 0) {
      return;
    }
    const params: unknown[] = [];
    const ctes = parts.map((part) => {
      const offset = params.length;
      params.push(...part.params);
      const sql = renumberParameters(part.sql, part.params.length, offset, `Batched statement ${part.name}`);
      return `${part.name} AS (${sql})`;
    });
    const counts = parts.map((part) => `(SELECT count(*) FROM ${part.name})::int AS ${part.name}`);
    const rows = await preparedQuery<Record<string, number>>(
      manager,
      `WITH ${ctes.join(',\n')}\nSELECT ${counts.join(', ')}`,
      params,
    );
    for (const part of parts) {
      part.check?.(rows[0][part.name]);
    }
  }
}
