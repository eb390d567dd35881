import type { EntityManager } from 'typeorm';
import { renumberParameters } from 'src/core/database/batched-sql';
import { preparedQuery } from 'src/core/database/prepared-query';

/** A statement added to a batch: its CTE name, for later statements of the batch to read from. */
export interface BatchedStatement {
  readonly name: string;
}

interface Part {
  name: string;
  sql: string;
  params: unknown[];
  /** Called with the number of rows the statement returned, once the batch ran. */
  check?: (rows: number) => void;
}

/**
 * Writes of one transaction sent to PostgreSQL as one statement: each one a data-modifying CTE
 * (`INSERT ... RETURNING ...`, `UPDATE ... RETURNING ...`), so a request that writes a row in five
 * tables pays one round trip instead of five. Each module still writes its own tables: it adds its
 * statement with its own `$1..$n` parameters, which are renumbered here.
 *
 * PostgreSQL runs every data-modifying CTE exactly once, all on the same snapshot: a statement
 * does not see the rows another statement of the batch writes, except through the CTE name of that
 * statement (`FROM <name>`), and no two statements may change the same row. Foreign keys are checked
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
   * Adds a statement; it must return rows (RETURNING) for its count to mean anything. `$1..$n` in
   * `sql` are `params`; the name of an earlier statement may be interpolated to read its rows.
   */
  add(sql: string, params: unknown[], check?: (rows: number) => void): BatchedStatement {
    const name = `batched_${this.parts.length}`;
    this.parts.push({ name, sql, params, check });
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
