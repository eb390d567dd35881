import { createHash } from 'node:crypto';
import type { Pool, PoolClient, QueryResult } from 'pg';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

/** Statement texts seen, with their names (bounded: the hot statements are a handful). */
const names = new Map<string, string>();
const NAMES_LIMIT = 1000;

function statementName(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    if (names.size >= NAMES_LIMIT) {
      names.clear();
    }
    name = `s_${createHash('sha1').update(text).digest('hex')}`;
    names.set(text, name);
  }
  return name;
}

/**
 * Runs a statement as a named prepared statement: each connection parses and plans it once and
 * then only binds and executes it, which saves PostgreSQL a third of the CPU of the
 * deposit path's statements (bench/transfers). For the statements every request of a route sends,
 * not for one-off or generated SQL (each distinct text stays prepared on each connection).
 *
 * Inside a transaction (`manager` of `dataSource.transaction`) the statement runs on that
 * transaction's connection; otherwise on any pooled one. Failures are logged and thrown as
 * TypeORM's `manager.query` does (QueryFailedError, through the service's query logger).
 */
export async function preparedQuery<T>(
  target: EntityManager | DataSource,
  text: string,
  params: unknown[],
): Promise<T[]> {
  return (await preparedResult(target, text, params, 'object')).rows as T[];
}

/**
 * preparedQuery's whole result: its fields, and rows as arrays (`array`, columns by position, so
 * two columns of one name both survive) or objects. Inside a released transaction runner, only
 * `object` rows can be had (TypeORM's own error is thrown).
 */
export async function preparedResult(
  target: EntityManager | DataSource,
  text: string,
  params: unknown[],
  rowMode: 'array' | 'object',
): Promise<QueryResult> {
  const dataSource = target instanceof DataSource ? target : target.connection;
  const runner = target instanceof DataSource ? undefined : target.queryRunner;
  if (runner?.isReleased) {
    // TypeORM's own error for a released runner.
    return { rows: (await runner.query(text, params)) as unknown[] } as QueryResult;
  }
  const client: Pool | PoolClient = runner
    ? ((await runner.connect()) as PoolClient)
    : ((dataSource.driver as PostgresDriver).master as Pool);
  try {
    return await client.query({
      name: statementName(text),
      text,
      values: params,
      ...(rowMode === 'array' ? { rowMode: 'array' as const } : {}),
    });
  } catch (err) {
    dataSource.logger.logQueryError(err as Error, text, params, runner);
    throw new QueryFailedError(text, params, err as Error);
  }
}
