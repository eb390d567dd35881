import { MigrationInterface, QueryRunner } from 'typeorm';

/** Financial plans (one per account) and every stored version of each. */
export class Wealth1763940000000 implements MigrationInterface {
  name = 'Wealth1763940000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "financial_plans" (
        "id" text PRIMARY KEY,
        "tenant_id" text NOT NULL,
        "livemode" boolean NOT NULL,
        "account_id" uuid NOT NULL,
        "version" integer NOT NULL,
        "status" text NOT NULL,
        "document" jsonb NOT NULL,
        "created_at" timestamptz NOT NULL,
        "updated_at" timestamptz NOT NULL,
        CONSTRAINT "financial_plans_status_check" CHECK ("status" IN ('active', 'archived')),
        CONSTRAINT "financial_plans_tenant_id_fkey" FOREIGN KEY ("tenant_id")
          REFERENCES "tenants"("id") ON DELETE CASCADE,
        CONSTRAINT "financial_plans_account_id_fkey" FOREIGN KEY ("account_id")
          REFERENCES "investment_accounts"("id") ON DELETE CASCADE
      )`);
    await q.query(`CREATE UNIQUE INDEX "financial_plans_account_key" ON "financial_plans" ("account_id")`);
    await q.query(`
      CREATE TABLE "financial_plan_versions" (
        "financial_plan_id" text NOT NULL,
        "version" integer NOT NULL,
        "status" text NOT NULL,
        "document" jsonb NOT NULL,
        "written_at" timestamptz NOT NULL,
        PRIMARY KEY ("financial_plan_id", "version"),
        CONSTRAINT "financial_plan_versions_status_check" CHECK ("status" IN ('active', 'archived')),
        CONSTRAINT "financial_plan_versions_plan_id_fkey" FOREIGN KEY ("financial_plan_id")
          REFERENCES "financial_plans"("id") ON DELETE CASCADE
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "financial_plan_versions"`);
    await q.query(`DROP TABLE "financial_plans"`);
  }
}
