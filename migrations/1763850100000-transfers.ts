import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Funding sources, transfers (deposits and withdrawals, both views in one row) and per-tenant
 * transfer terms. The account's `last_equity` column goes: it is derived from the ledger now.
 */
export class Transfers1763850100000 implements MigrationInterface {
  name = 'Transfers1763850100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "funding_sources" (
        "id" text PRIMARY KEY,
        "tenant_id" text NOT NULL,
        "livemode" boolean NOT NULL,
        "investor_id" text NOT NULL,
        "account_id" uuid NOT NULL,
        "type" text NOT NULL,
        "account_holder_name" text NOT NULL,
        "account_number" text NOT NULL,
        "account_number_last4" text NOT NULL,
        "routing_number" text NULL,
        "bank_code" text NULL,
        "currency" text NOT NULL,
        "country" text NOT NULL,
        "status" text NOT NULL,
        "sandbox_outcome" text NULL,
        "metadata" jsonb NOT NULL DEFAULT '{}',
        "created_at" timestamptz NOT NULL,
        "removed_at" timestamptz NULL,
        CONSTRAINT "funding_sources_type_check" CHECK ("type" IN ('bank_account')),
        CONSTRAINT "funding_sources_status_check" CHECK ("status" IN ('verified', 'removed')),
        CONSTRAINT "funding_sources_tenant_id_fkey" FOREIGN KEY ("tenant_id")
          REFERENCES "tenants"("id") ON DELETE CASCADE,
        CONSTRAINT "funding_sources_account_id_fkey" FOREIGN KEY ("account_id")
          REFERENCES "investment_accounts"("id") ON DELETE CASCADE
      )`);
    await q.query(
      `CREATE INDEX "funding_sources_investor_created_idx"
         ON "funding_sources" ("tenant_id", "livemode", "investor_id", "created_at", "id")`,
    );
    await q.query(`
      CREATE TABLE "transfers" (
        "id" text PRIMARY KEY,
        "transaction_id" text NOT NULL,
        "tenant_id" text NOT NULL,
        "livemode" boolean NOT NULL,
        "investor_id" text NOT NULL,
        "account_id" uuid NOT NULL,
        "type" text NOT NULL,
        "status" text NOT NULL,
        "currency" text NOT NULL,
        "amount" numeric(38,8) NOT NULL,
        "fee" numeric(38,8) NOT NULL,
        "net_amount" numeric(38,8) NOT NULL,
        "funding_type" text NOT NULL,
        "funding_source_id" text NOT NULL,
        "method" text NOT NULL,
        "description" text NULL,
        "external_reference_id" text NULL,
        "metadata" jsonb NOT NULL DEFAULT '{}',
        "failure_reason" text NULL,
        "sandbox_outcome" text NULL,
        "created_at" timestamptz NOT NULL,
        "processing_at" timestamptz NULL,
        "settled_at" timestamptz NULL,
        "failed_at" timestamptz NULL,
        "canceled_at" timestamptz NULL,
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "transfers_type_check" CHECK ("type" IN ('deposit', 'withdrawal')),
        CONSTRAINT "transfers_status_check"
          CHECK ("status" IN ('pending', 'processing', 'settled', 'failed', 'canceled')),
        CONSTRAINT "transfers_method_check" CHECK ("method" IN ('ach', 'wire')),
        CONSTRAINT "transfers_amounts_check"
          CHECK ("amount" > 0 AND "fee" >= 0 AND "net_amount" > 0 AND "net_amount" + "fee" = "amount"),
        CONSTRAINT "transfers_tenant_id_fkey" FOREIGN KEY ("tenant_id")
          REFERENCES "tenants"("id") ON DELETE CASCADE,
        CONSTRAINT "transfers_account_id_fkey" FOREIGN KEY ("account_id")
          REFERENCES "investment_accounts"("id") ON DELETE CASCADE
      )`);
    await q.query(`CREATE UNIQUE INDEX "transfers_transaction_id_key" ON "transfers" ("transaction_id")`);
    await q.query(
      `CREATE INDEX "transfers_account_created_idx" ON "transfers" ("tenant_id", "livemode", "account_id", "created_at")`,
    );
    await q.query(
      `CREATE INDEX "transfers_investor_type_created_idx"
         ON "transfers" ("tenant_id", "livemode", "investor_id", "type", "created_at", "id")`,
    );
    await q.query(`
      CREATE TABLE "transfer_settings" (
        "tenant_id" text PRIMARY KEY,
        "deposit_fee_flat" numeric(20,4) NOT NULL DEFAULT 0,
        "deposit_fee_bps" integer NOT NULL DEFAULT 0,
        "withdrawal_fee_flat" numeric(20,4) NOT NULL DEFAULT 0,
        "withdrawal_fee_bps" integer NOT NULL DEFAULT 0,
        "min_amount" numeric(20,4) NOT NULL DEFAULT 1,
        "max_amount" numeric(20,4) NOT NULL DEFAULT 1000000,
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "transfer_settings_values_check" CHECK (
          "deposit_fee_flat" >= 0 AND "deposit_fee_bps" BETWEEN 0 AND 10000 AND "withdrawal_fee_flat" >= 0
          AND "withdrawal_fee_bps" BETWEEN 0 AND 10000 AND "min_amount" > 0 AND "max_amount" >= "min_amount"),
        CONSTRAINT "transfer_settings_tenant_id_fkey" FOREIGN KEY ("tenant_id")
          REFERENCES "tenants"("id") ON DELETE CASCADE
      )`);
    await q.query(`ALTER TABLE "investment_accounts" DROP COLUMN "last_equity"`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "investment_accounts" ADD "last_equity" numeric(20,2) NOT NULL DEFAULT 0`);
    await q.query(`DROP TABLE "transfer_settings"`);
    await q.query(`DROP TABLE "transfers"`);
    await q.query(`DROP TABLE "funding_sources"`);
  }
}
