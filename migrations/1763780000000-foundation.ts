import { MigrationInterface, QueryRunner } from 'typeorm';

export class Foundation1763780000000 implements MigrationInterface {
  name = 'Foundation1763780000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "tenants" (
        "id" text PRIMARY KEY,
        "name" text NOT NULL,
        "products" text[] NOT NULL DEFAULT '{}',
        "fixed_income_enabled" boolean NOT NULL DEFAULT false,
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE "api_keys" (
        "id" text PRIMARY KEY,
        "tenant_id" text NOT NULL REFERENCES "tenants"("id") ON DELETE CASCADE,
        "investor_id" text NULL,
        "name" text NOT NULL DEFAULT '',
        "environment" text NOT NULL CHECK ("environment" IN ('TEST', 'PRODUCTION')),
        "public_key" text NOT NULL,
        "secret_hash" text NOT NULL,
        "status" text NOT NULL DEFAULT 'active' CHECK ("status" IN ('active', 'revoked')),
        "expires_at" timestamptz NULL,
        "revoked_at" timestamptz NULL,
        "metadata" jsonb NOT NULL DEFAULT '{}',
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX "api_keys_public_key_key" ON "api_keys" ("public_key")`);
    await q.query(`CREATE INDEX "api_keys_tenant_investor_idx" ON "api_keys" ("tenant_id", "investor_id")`);
    await q.query(`
      CREATE TABLE "idempotency_keys" (
        "tenant_id" text NOT NULL,
        "livemode" boolean NOT NULL,
        "key" text NOT NULL,
        "request_hash" text NOT NULL,
        "state" text NOT NULL CHECK ("state" IN ('in_flight', 'completed')),
        "response_status" integer NULL,
        "response_body" jsonb NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY ("tenant_id", "livemode", "key")
      )`);
    await q.query(`
      CREATE TABLE "events" (
        "id" text PRIMARY KEY,
        "tenant_id" text NOT NULL,
        "livemode" boolean NOT NULL,
        "event" text NOT NULL,
        "data" jsonb NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "relayed_at" timestamptz NULL
      )`);
    await q.query(
      `CREATE INDEX "events_tenant_mode_created_idx" ON "events" ("tenant_id", "livemode", "created_at")`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "events"`);
    await q.query(`DROP TABLE "idempotency_keys"`);
    await q.query(`DROP TABLE "api_keys"`);
    await q.query(`DROP TABLE "tenants"`);
  }
}
