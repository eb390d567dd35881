import type { Logger } from '@nestjs/common';
import type { Pool } from 'pg';
import { requestLogBatchJson, RequestLogColumns } from 'src/modules/request-logs/request-log-row';

/**
 * The batch as one JSON array of positional arrays (requestLogColumns' order). Rows of a tenant
 * erased meanwhile (sandbox tenants are deleted through the admin API) are left out.
 */
const INSERT_ROWS = `INSERT INTO "request_logs"
    ("id", "tenant_id", "livemode", "api_key_id", "investor_id", "method", "path", "query", "status",
     "duration_ms", "error_code", "error", "idempotency_key", "idempotent_replayed", "legacy", "created_at")
  SELECT r->>0, r->>1, (r->>2)::boolean, r->>3, r->>4, r->>5, r->>6, NULLIF(r->7, 'null'::jsonb),
         (r->>8)::int, (r->>9)::int, r->>10, NULLIF(r->11, 'null'::jsonb), r->>12, (r->>13)::boolean,
         (r->>14)::boolean, to_timestamp((r->>15)::float8 / 1000.0)
  FROM jsonb_array_elements($1::jsonb) AS r
  WHERE EXISTS (SELECT 1 FROM "tenants" t WHERE t."id" = r->>1)
  ON CONFLICT ("id") DO NOTHING`;

/**
 * The same insert, answering the (tenant, mode) pairs it wrote rows for: used only when a batch
 * holds a tenant and mode whose purge job this process has not scheduled yet today, so the
 * usual batch sends no result rows back to parse.
 */
const INSERT_ROWS_RETURNING_SCOPES = `WITH "inserted" AS (
  ${INSERT_ROWS}
  RETURNING "tenant_id", "livemode")
SELECT DISTINCT "tenant_id", "livemode" FROM "inserted"`;

/** A tenant and mode the insert wrote rows for (a result row of INSERT_ROWS_RETURNING_SCOPES). */
export interface WrittenScope {
  tenant_id: string;
  livemode: boolean;
}

const NO_SCOPES: WrittenScope[] = [];

/**
 * Writes a batch (requestLogBatchJson's text) in one statement; with `returnScopes`, answers the
 * tenants and modes written, else nothing. Straight to the driver's pool as a named statement
 * (prepared once per connection, never re-planned): the TypeORM query runner around it (runner,
 * logger, broadcaster) costs more than the write on this process, the request path's process.
 * A single JSON parameter is the cheapest way to hand many rows over from here (one native
 * JSON.stringify, where array parameters are serialized element by element in JavaScript).
 */
async function insertRequestLogs(pool: Pool, json: string, returnScopes: boolean): Promise<WrittenScope[]> {
  if (!returnScopes) {
    await pool.query({ name: 'request_logs_insert_rows', text: INSERT_ROWS, values: [json] });
    return NO_SCOPES;
  }
  const written = await pool.query<WrittenScope>({
    name: 'request_logs_insert_rows_scopes',
    text: INSERT_ROWS_RETURNING_SCOPES,
    values: [json],
  });
  return written.rows;
}

/**
 * The rows in one statement; should it fail, each row in its own, so a row PostgreSQL refuses
 * (or whose tenant was erased while the statement ran) loses only itself, never the requests
 * flushed beside it. Logs counts and request ids, never row contents. With `returnScopes`,
 * returns the tenants and modes whose rows were written.
 */
export async function insertInParts(
  pool: Pool,
  rows: RequestLogColumns[],
  returnScopes: boolean,
  logger: Logger,
): Promise<WrittenScope[]> {
  try {
    return await insertRequestLogs(pool, requestLogBatchJson(rows), returnScopes);
  } catch (err) {
    if (rows.length > 1) {
      logger.warn(
        `${rows.length} request log rows not stored as one batch (${(err as Error).message}); ` +
          'writing them one by one',
      );
    }
    return insertOneByOne(pool, rows, returnScopes, logger);
  }
}

async function insertOneByOne(
  pool: Pool,
  rows: RequestLogColumns[],
  returnScopes: boolean,
  logger: Logger,
): Promise<WrittenScope[]> {
  const written = new Map<string, WrittenScope>();
  const refused: string[] = [];
  let cause = '';
  for (const row of rows) {
    try {
      for (const scope of await insertRequestLogs(pool, requestLogBatchJson([row]), returnScopes)) {
        written.set(`${scope.tenant_id}:${scope.livemode}`, scope);
      }
    } catch (err) {
      refused.push(row[0]);
      cause = (err as Error).message;
    }
  }
  if (refused.length > 0) {
    logger.warn(`${refused.length} request log rows not stored (${cause}): ${refused.join(', ')}`);
  }
  return [...written.values()];
}
