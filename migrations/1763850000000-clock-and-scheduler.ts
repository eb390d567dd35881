import { MigrationInterface, QueryRunner } from 'typeorm';

/** Tenants' test clocks and the clock-driven job table. */
export class ClockAndScheduler1763850000000 implements MigrationInterface {
  name = 'ClockAndScheduler1763850000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "test_clocks" (
        "tenant_id" text PRIMARY KEY,
        "frozen_time" timestamptz NULL,
        "version" bigint NOT NULL DEFAULT 0,
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "test_clocks_tenant_id_fkey" FOREIGN KEY ("tenant_id")
          REFERENCES "tenants"("id") ON DELETE CASCADE
      )`);
    await q.query(`
      CREATE TABLE "scheduled_jobs" (
        "id" uuid PRIMARY KEY,
        "tenant_id" text NOT NULL,
        "livemode" boolean NOT NULL,
        "kind" text NOT NULL,
        "dedupe_key" text NOT NULL,
        "due_at" timestamptz NOT NULL,
        "payload" jsonb NOT NULL DEFAULT '{}',
        "state" text NOT NULL DEFAULT 'scheduled',
        "attempts" integer NOT NULL DEFAULT 0,
        "last_error" text NULL,
        "queued_at" timestamptz NULL,
        "finished_at" timestamptz NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "scheduled_jobs_state_check"
          CHECK ("state" IN ('scheduled', 'queued', 'done', 'failed', 'canceled')),
        CONSTRAINT "scheduled_jobs_tenant_id_fkey" FOREIGN KEY ("tenant_id")
          REFERENCES "tenants"("id") ON DELETE CASCADE
      )`);
    await q.query(
      `CREATE UNIQUE INDEX "scheduled_jobs_dedupe_key" ON "scheduled_jobs" ("tenant_id", "livemode", "kind", "dedupe_key")`,
    );
    await q.query(
      `CREATE INDEX "scheduled_jobs_due_idx" ON "scheduled_jobs" ("due_at") WHERE "state" = 'scheduled'`,
    );
    await q.query(
      `CREATE INDEX "scheduled_jobs_tenant_due_idx" ON "scheduled_jobs" ("tenant_id", "livemode", "due_at")
        WHERE "state" IN ('scheduled', 'queued')`,
    );
    await q.query(
      `CREATE INDEX "scheduled_jobs_queued_idx" ON "scheduled_jobs" ("queued_at") WHERE "state" = 'queued'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "scheduled_jobs"`);
    await q.query(`DROP TABLE "test_clocks"`);
  }
}
