import { MigrationInterface, QueryRunner } from 'typeorm';

/** Sandbox webhook sinks (test mode receivers the service hosts) and the requests they received. */
export class WebhookSinks1763910000000 implements MigrationInterface {
  name = 'WebhookSinks1763910000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "webhook_sinks" (
        "id" text PRIMARY KEY,
        "tenant_id" text NOT NULL REFERENCES "tenants"("id") ON DELETE CASCADE,
        "answer_status" integer NOT NULL DEFAULT 200 CHECK ("answer_status" BETWEEN 200 AND 599),
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX "webhook_sinks_tenant_idx" ON "webhook_sinks" ("tenant_id")`);
    await q.query(`
      CREATE TABLE "webhook_sink_requests" (
        "seq" bigserial PRIMARY KEY,
        "sink_id" text NOT NULL REFERENCES "webhook_sinks"("id") ON DELETE CASCADE,
        "tenant_id" text NOT NULL REFERENCES "tenants"("id") ON DELETE CASCADE,
        "method" text NOT NULL,
        "headers" jsonb NOT NULL,
        "body" text NOT NULL,
        "received_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE INDEX "webhook_sink_requests_sink_idx" ON "webhook_sink_requests" ("sink_id", "seq")`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "webhook_sink_requests"`);
    await q.query(`DROP TABLE "webhook_sinks"`);
  }
}
