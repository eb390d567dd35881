import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Request logs behind `request_log_url`: one row per authenticated /v1 (or legacy) request,
 * written in batches off the request path. No foreign key to tenants: the batch insert stays one
 * plain statement, and the purge job removes rows by age.
 */
export class RequestLogs1763950000000 implements MigrationInterface {
  name = 'RequestLogs1763950000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "request_logs" (
        "id" text PRIMARY KEY,
        "tenant_id" text NOT NULL,
        "livemode" boolean NOT NULL,
        "api_key_id" text NULL,
        "investor_id" text NULL,
        "method" text NOT NULL,
        "path" text NOT NULL,
        "query" jsonb NULL,
        "status" integer NOT NULL,
        "duration_ms" integer NOT NULL,
        "error_code" text NULL,
        "error" jsonb NULL,
        "idempotency_key" text NULL,
        "idempotent_replayed" boolean NOT NULL DEFAULT false,
        "legacy" boolean NOT NULL DEFAULT false,
        "created_at" timestamptz NOT NULL
      )`);
    await q.query(
      `CREATE INDEX "request_logs_tenant_created_idx"
         ON "request_logs" ("tenant_id", "livemode", "created_at", "id")`,
    );
    await q.query(`CREATE INDEX "request_logs_created_idx" ON "request_logs" ("created_at")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "request_logs"`);
  }
}
