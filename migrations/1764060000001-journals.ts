import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Journals between accounts of one tenant and mode (docs/decisions.md, Firm account and journals):
 * the tenant's limits and every journal, executed or rejected. A JNLC's cash moves in the ledger;
 * a JNLS's units and cost basis in the positions of both accounts.
 */
export class Journals1764060000001 implements MigrationInterface {
  name = 'Journals1764060000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "journal_settings" (
        "tenant_id" text PRIMARY KEY REFERENCES "tenants" ("id") ON DELETE CASCADE,
        "journal_limit_per_entry" numeric(38, 8) NOT NULL CHECK ("journal_limit_per_entry" > 0),
        "journal_limit_per_day_per_account" numeric(38, 8) NOT NULL CHECK ("journal_limit_per_day_per_account" > 0),
        "updated_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE "journals" (
        "id" text PRIMARY KEY,
        "tenant_id" text NOT NULL REFERENCES "tenants" ("id") ON DELETE CASCADE,
        "livemode" boolean NOT NULL,
        "entry_type" text NOT NULL CHECK ("entry_type" IN ('JNLC', 'JNLS')),
        "from_account_id" uuid NOT NULL REFERENCES "investment_accounts" ("id") ON DELETE CASCADE,
        "to_account_id" text NOT NULL,
        "from_investor_id" text,
        "to_investor_id" text,
        "amount" numeric(38, 8),
        "currency" text,
        "symbol" text,
        "asset_id" text,
        "quantity" numeric(38, 8),
        "cost_basis" numeric(38, 8),
        "description" text,
        "metadata" jsonb NOT NULL DEFAULT '{}',
        "status" text NOT NULL CHECK ("status" IN ('executed', 'rejected')),
        "reject_reason" text,
        "batch_id" text,
        "ledger_journal_id" uuid,
        "business_date" date NOT NULL,
        "created_at" timestamptz NOT NULL,
        CONSTRAINT "journals_shape_check" CHECK (
          ("entry_type" = 'JNLC' AND "amount" > 0 AND "currency" IS NOT NULL)
          OR ("entry_type" = 'JNLS' AND "symbol" IS NOT NULL AND "quantity" > 0))
      )`);
    await q.query(
      `CREATE INDEX "journals_tenant_created_idx" ON "journals" ("tenant_id", "livemode", "created_at", "id")`,
    );
    await q.query(
      `CREATE INDEX "journals_from_created_idx" ON "journals" ("from_account_id", "created_at", "id")`,
    );
    await q.query(
      `CREATE INDEX "journals_to_created_idx" ON "journals" ("to_account_id", "created_at", "id")`,
    );
    // The daily JNLC limit sums what an account received on one business day.
    await q.query(
      `CREATE INDEX "journals_received_per_day_idx" ON "journals" ("to_account_id", "currency", "business_date")
         WHERE "entry_type" = 'JNLC' AND "status" = 'executed'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "journals"`);
    await q.query(`DROP TABLE "journal_settings"`);
  }
}
