import { MigrationInterface, QueryRunner } from 'typeorm';

/** Investors, their investment accounts and agreements, and KYC documents. */
export class Investors1763800000000 implements MigrationInterface {
  name = 'Investors1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "investment_accounts" (
        "id" uuid PRIMARY KEY,
        "tenant_id" text NOT NULL,
        "livemode" boolean NOT NULL,
        "investor_id" text NOT NULL,
        "account_number" text NOT NULL,
        "status" text NOT NULL DEFAULT 'SUBMITTED',
        "crypto_status" text NOT NULL DEFAULT 'INACTIVE',
        "currency" text NOT NULL DEFAULT 'USD',
        "last_equity" numeric(20,2) NOT NULL DEFAULT 0,
        "account_type" text NOT NULL DEFAULT 'trading',
        "trading_type" text NOT NULL DEFAULT 'cash',
        "trading_configurations" jsonb NULL,
        "enabled_assets" text[] NOT NULL,
        "email_address" text NOT NULL,
        "phone_number" text NOT NULL,
        "address" jsonb NOT NULL,
        "identity" jsonb NOT NULL,
        "tax_id" text NULL,
        "disclosures" jsonb NOT NULL,
        "kyc_status" text NOT NULL DEFAULT 'not_submitted',
        "kyc_submitted_at" timestamptz NULL,
        "kyc_decided_at" timestamptz NULL,
        "kyc_rejection_reasons" text[] NOT NULL DEFAULT '{}',
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "investment_accounts_tenant_id_fkey" FOREIGN KEY ("tenant_id")
          REFERENCES "tenants"("id") ON DELETE CASCADE,
        CONSTRAINT "investment_accounts_status_check"
          CHECK ("status" IN ('SUBMITTED', 'PENDING_APPROVAL', 'ACTIVE', 'SUSPENDED', 'CLOSED')),
        CONSTRAINT "investment_accounts_crypto_status_check"
          CHECK ("crypto_status" IN ('ACTIVE', 'INACTIVE', 'SUSPENDED')),
        CONSTRAINT "investment_accounts_account_type_check"
          CHECK ("account_type" IN ('trading', 'individual', 'joint', 'ira', 'corporate')),
        CONSTRAINT "investment_accounts_trading_type_check" CHECK ("trading_type" IN ('cash', 'margin')),
        CONSTRAINT "investment_accounts_kyc_status_check"
          CHECK ("kyc_status" IN ('not_submitted', 'in_review', 'approved', 'rejected'))
      )`);
    await q.query(
      `CREATE UNIQUE INDEX "investment_accounts_account_number_key" ON "investment_accounts" ("account_number")`,
    );
    await q.query(
      `CREATE UNIQUE INDEX "investment_accounts_investor_id_key" ON "investment_accounts" ("investor_id")`,
    );
    await q.query(
      `CREATE INDEX "investment_accounts_tenant_mode_created_idx"
         ON "investment_accounts" ("tenant_id", "livemode", "created_at")`,
    );
    await q.query(
      `CREATE INDEX "investment_accounts_tenant_mode_email_idx"
         ON "investment_accounts" ("tenant_id", "livemode", "email_address")`,
    );

    await q.query(`
      CREATE TABLE "account_agreements" (
        "id" uuid PRIMARY KEY,
        "account_id" uuid NOT NULL,
        "agreement" text NOT NULL,
        "revision" text NOT NULL,
        "signed_at" timestamptz NOT NULL,
        "ip_address" text NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "account_agreements_account_id_fkey" FOREIGN KEY ("account_id")
          REFERENCES "investment_accounts"("id") ON DELETE CASCADE
      )`);
    await q.query(
      `CREATE UNIQUE INDEX "account_agreements_account_agreement_revision_key"
         ON "account_agreements" ("account_id", "agreement", "revision")`,
    );

    await q.query(`
      CREATE TABLE "investors" (
        "id" text PRIMARY KEY,
        "tenant_id" text NOT NULL,
        "livemode" boolean NOT NULL,
        "account_id" uuid NOT NULL,
        "metadata" jsonb NOT NULL DEFAULT '{}',
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "investors_tenant_id_fkey" FOREIGN KEY ("tenant_id")
          REFERENCES "tenants"("id") ON DELETE CASCADE,
        CONSTRAINT "investors_account_id_fkey" FOREIGN KEY ("account_id")
          REFERENCES "investment_accounts"("id") ON DELETE CASCADE
      )`);
    await q.query(`CREATE UNIQUE INDEX "investors_account_id_key" ON "investors" ("account_id")`);
    await q.query(
      `CREATE INDEX "investors_tenant_mode_created_idx" ON "investors" ("tenant_id", "livemode", "created_at", "id")`,
    );

    await q.query(`
      CREATE TABLE "documents" (
        "id" text PRIMARY KEY,
        "tenant_id" text NOT NULL,
        "livemode" boolean NOT NULL,
        "investor_id" text NOT NULL,
        "account_id" uuid NOT NULL,
        "type" text NOT NULL,
        "status" text NOT NULL DEFAULT 'pending',
        "file_name" text NOT NULL,
        "content_type" text NOT NULL,
        "size" integer NOT NULL,
        "sha256" text NOT NULL,
        "storage_key" text NOT NULL,
        "rejection_reason" text NULL,
        "reviewed_at" timestamptz NULL,
        "metadata" jsonb NOT NULL DEFAULT '{}',
        "created_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "documents_tenant_id_fkey" FOREIGN KEY ("tenant_id")
          REFERENCES "tenants"("id") ON DELETE CASCADE,
        CONSTRAINT "documents_account_id_fkey" FOREIGN KEY ("account_id")
          REFERENCES "investment_accounts"("id") ON DELETE CASCADE,
        CONSTRAINT "documents_type_check"
          CHECK ("type" IN ('id_front', 'id_back', 'passport', 'proof_of_address', 'w8ben', 'w9', 'other')),
        CONSTRAINT "documents_status_check" CHECK ("status" IN ('pending', 'approved', 'rejected')),
        CONSTRAINT "documents_content_type_check"
          CHECK ("content_type" IN ('application/pdf', 'image/png', 'image/jpeg')),
        CONSTRAINT "documents_size_check" CHECK ("size" > 0)
      )`);
    await q.query(
      `CREATE INDEX "documents_account_created_idx" ON "documents" ("account_id", "created_at", "id")`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "documents"`);
    await q.query(`DROP TABLE "investors"`);
    await q.query(`DROP TABLE "account_agreements"`);
    await q.query(`DROP TABLE "investment_accounts"`);
  }
}
