import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * FX conversions (docs/decisions.md, FX conversions): the tenant's spread, test-mode rate
 * overrides set by the test helper, quotes (30 s on the clock, used at most once) and executed
 * conversions. Money moves only in the ledger; these rows hold the terms.
 */
export class Fx1764060000000 implements MigrationInterface {
  name = 'Fx1764060000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "fx_settings" (
        "tenant_id" text PRIMARY KEY REFERENCES "tenants" ("id") ON DELETE CASCADE,
        "fx_spread_bps" integer NOT NULL DEFAULT 100 CHECK ("fx_spread_bps" BETWEEN 0 AND 5000),
        "updated_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE "fx_rate_overrides" (
        "tenant_id" text NOT NULL REFERENCES "tenants" ("id") ON DELETE CASCADE,
        "from_currency" text NOT NULL,
        "to_currency" text NOT NULL,
        "rate" numeric(38, 8) NOT NULL CHECK ("rate" > 0),
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY ("tenant_id", "from_currency", "to_currency")
      )`);
    await q.query(`
      CREATE TABLE "fx_quotes" (
        "id" text PRIMARY KEY,
        "tenant_id" text NOT NULL REFERENCES "tenants" ("id") ON DELETE CASCADE,
        "livemode" boolean NOT NULL,
        "from_currency" text NOT NULL,
        "to_currency" text NOT NULL,
        "from_amount" numeric(38, 8) NOT NULL CHECK ("from_amount" > 0),
        "to_amount" numeric(38, 8) NOT NULL CHECK ("to_amount" > 0),
        "rate" numeric(38, 8) NOT NULL,
        "mid_rate" numeric(38, 8) NOT NULL,
        "spread_bps" integer NOT NULL,
        "spread_amount" numeric(38, 8) NOT NULL,
        "expires_at" timestamptz NOT NULL,
        "used_at" timestamptz,
        "created_at" timestamptz NOT NULL
      )`);
    await q.query(`
      CREATE TABLE "fx_conversions" (
        "id" text PRIMARY KEY,
        "tenant_id" text NOT NULL REFERENCES "tenants" ("id") ON DELETE CASCADE,
        "livemode" boolean NOT NULL,
        "account_id" uuid NOT NULL REFERENCES "investment_accounts" ("id") ON DELETE CASCADE,
        "investor_id" text,
        "from_currency" text NOT NULL,
        "to_currency" text NOT NULL,
        "from_amount" numeric(38, 8) NOT NULL CHECK ("from_amount" > 0),
        "to_amount" numeric(38, 8) NOT NULL CHECK ("to_amount" > 0),
        "rate" numeric(38, 8) NOT NULL,
        "mid_rate" numeric(38, 8) NOT NULL,
        "spread_bps" integer NOT NULL,
        "spread_amount" numeric(38, 8) NOT NULL,
        "status" text NOT NULL CHECK ("status" IN ('executed')),
        "quote_id" text UNIQUE REFERENCES "fx_quotes" ("id") ON DELETE SET NULL,
        "ledger_journal_id" uuid NOT NULL,
        "created_at" timestamptz NOT NULL
      )`);
    await q.query(
      `CREATE INDEX "fx_conversions_account_created_idx"
         ON "fx_conversions" ("tenant_id", "livemode", "account_id", "created_at", "id")`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "fx_conversions"`);
    await q.query(`DROP TABLE "fx_quotes"`);
    await q.query(`DROP TABLE "fx_rate_overrides"`);
    await q.query(`DROP TABLE "fx_settings"`);
  }
}
