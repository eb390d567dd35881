import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Documents the service makes (docs/decisions.md, Trade confirmations and monthly statements): two new types, the JSON
 * each carries, and a key per account and period so a retried job makes no second document.
 * Tenant branding (display name and accent colour) printed on them.
 */
export class GeneratedDocuments1764050000001 implements MigrationInterface {
  name = 'GeneratedDocuments1764050000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "documents" DROP CONSTRAINT "documents_type_check"`);
    await q.query(
      `ALTER TABLE "documents" ADD CONSTRAINT "documents_type_check" CHECK ("type" IN ('id_front', 'id_back',
         'passport', 'proof_of_address', 'w8ben', 'w9', 'other', 'trade_confirmation', 'account_statement'))`,
    );
    await q.query(`ALTER TABLE "documents" ADD "generated_key" text`);
    await q.query(`ALTER TABLE "documents" ADD "data" jsonb`);
    await q.query(
      `CREATE UNIQUE INDEX "documents_generated_key" ON "documents" ("tenant_id", "livemode", "generated_key")
         WHERE "generated_key" IS NOT NULL`,
    );
    await q.query(`
      CREATE TABLE "tenant_branding" (
        "tenant_id" text PRIMARY KEY,
        "display_name" text,
        "accent_color" text,
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "tenant_branding_accent_color_check" CHECK ("accent_color" ~ '^#[0-9a-f]{6}$'),
        CONSTRAINT "tenant_branding_tenant_id_fkey" FOREIGN KEY ("tenant_id")
          REFERENCES "tenants"("id") ON DELETE CASCADE
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "tenant_branding"`);
    await q.query(`DELETE FROM "documents" WHERE "generated_key" IS NOT NULL`);
    await q.query(`DROP INDEX "documents_generated_key"`);
    await q.query(`ALTER TABLE "documents" DROP COLUMN "data"`);
    await q.query(`ALTER TABLE "documents" DROP COLUMN "generated_key"`);
    await q.query(`ALTER TABLE "documents" DROP CONSTRAINT "documents_type_check"`);
    await q.query(
      `ALTER TABLE "documents" ADD CONSTRAINT "documents_type_check" CHECK ("type" IN ('id_front', 'id_back',
         'passport', 'proof_of_address', 'w8ben', 'w9', 'other'))`,
    );
  }
}
