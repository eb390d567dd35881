import { MigrationInterface, QueryRunner } from 'typeorm';

/** Webhook endpoints, their delivery attempts and dead letters; outbox relay index on events. */
export class Webhooks1763790000000 implements MigrationInterface {
  name = 'Webhooks1763790000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "events" ADD "endpoint_id" text NULL`);
    await q.query(
      `CREATE INDEX "events_unrelayed_idx" ON "events" ("created_at") WHERE "relayed_at" IS NULL`,
    );
    await q.query(`
      CREATE TABLE "webhook_endpoints" (
        "id" text PRIMARY KEY,
        "tenant_id" text NOT NULL,
        "livemode" boolean NOT NULL,
        "name" text NOT NULL,
        "url" text NOT NULL,
        "event_type_names" text[] NOT NULL,
        "status" text NOT NULL DEFAULT 'enabled',
        "secret_ciphertext" text NOT NULL,
        "previous_secret_ciphertext" text NULL,
        "previous_secret_expires_at" timestamptz NULL,
        "metadata" jsonb NOT NULL DEFAULT '{}',
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "webhook_endpoints_status_check" CHECK ("status" IN ('enabled', 'disabled')),
        CONSTRAINT "webhook_endpoints_tenant_id_fkey" FOREIGN KEY ("tenant_id")
          REFERENCES "tenants"("id") ON DELETE CASCADE
      )`);
    await q.query(
      `CREATE INDEX "webhook_endpoints_tenant_mode_created_idx" ON "webhook_endpoints" ("tenant_id", "livemode", "created_at")`,
    );
    await q.query(`
      CREATE TABLE "webhook_delivery_attempts" (
        "id" text PRIMARY KEY,
        "tenant_id" text NOT NULL,
        "livemode" boolean NOT NULL,
        "endpoint_id" text NOT NULL,
        "event_id" text NOT NULL,
        "run" integer NOT NULL DEFAULT 0,
        "attempt" integer NOT NULL,
        "attempted_at" timestamptz NOT NULL,
        "succeeded" boolean NOT NULL,
        "status_code" integer NULL,
        "error" text NULL,
        "duration_ms" integer NOT NULL,
        "next_attempt_at" timestamptz NULL,
        CONSTRAINT "webhook_delivery_attempts_attempt_check" CHECK ("attempt" BETWEEN 1 AND 6),
        CONSTRAINT "webhook_delivery_attempts_endpoint_id_fkey" FOREIGN KEY ("endpoint_id")
          REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE,
        CONSTRAINT "webhook_delivery_attempts_event_id_fkey" FOREIGN KEY ("event_id")
          REFERENCES "events"("id") ON DELETE CASCADE
      )`);
    await q.query(
      `CREATE INDEX "webhook_delivery_attempts_endpoint_event_idx" ON "webhook_delivery_attempts" ("endpoint_id", "event_id", "attempted_at")`,
    );
    await q.query(
      `CREATE INDEX "webhook_delivery_attempts_event_idx" ON "webhook_delivery_attempts" ("event_id")`,
    );
    await q.query(`
      CREATE TABLE "webhook_dead_letters" (
        "id" text PRIMARY KEY,
        "tenant_id" text NOT NULL,
        "livemode" boolean NOT NULL,
        "endpoint_id" text NOT NULL,
        "event_id" text NOT NULL,
        "attempts" integer NOT NULL,
        "last_status_code" integer NULL,
        "last_error" text NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "replayed_at" timestamptz NULL,
        "replay_count" integer NOT NULL DEFAULT 0,
        CONSTRAINT "webhook_dead_letters_endpoint_id_fkey" FOREIGN KEY ("endpoint_id")
          REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE,
        CONSTRAINT "webhook_dead_letters_event_id_fkey" FOREIGN KEY ("event_id")
          REFERENCES "events"("id") ON DELETE CASCADE
      )`);
    await q.query(
      `CREATE UNIQUE INDEX "webhook_dead_letters_event_endpoint_key" ON "webhook_dead_letters" ("event_id", "endpoint_id")`,
    );
    await q.query(
      `CREATE INDEX "webhook_dead_letters_endpoint_idx" ON "webhook_dead_letters" ("endpoint_id")`,
    );
    await q.query(
      `CREATE INDEX "webhook_dead_letters_tenant_created_idx" ON "webhook_dead_letters" ("tenant_id", "created_at")`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "webhook_dead_letters"`);
    await q.query(`DROP TABLE "webhook_delivery_attempts"`);
    await q.query(`DROP TABLE "webhook_endpoints"`);
    await q.query(`DROP INDEX "events_unrelayed_idx"`);
    await q.query(`ALTER TABLE "events" DROP COLUMN "endpoint_id"`);
  }
}
