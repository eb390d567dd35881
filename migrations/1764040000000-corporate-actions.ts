import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Corporate actions (docs/decisions.md, Corporate actions): announcements (market-wide from support's
 * import, or one tenant's test mode from the test helper), each tenant and mode's processing of
 * them, one entitlement per action and account (the unique key that makes a retried job apply
 * nothing twice) and the tenant's dividend withholding rate.
 */
export class CorporateActions1764040000000 implements MigrationInterface {
  name = 'CorporateActions1764040000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "corporate_actions" (
        "id" text PRIMARY KEY,
        "tenant_id" text NULL,
        "type" text NOT NULL,
        "canceled_at" timestamptz NULL,
        "asset_id" text NOT NULL,
        "symbol" text NOT NULL,
        "cusip" text NULL,
        "currency" text NOT NULL,
        "market" text NOT NULL,
        "declaration_date" date NULL,
        "ex_date" date NOT NULL,
        "record_date" date NOT NULL,
        "payable_date" date NULL,
        "cash_rate" numeric(38,10) NULL,
        "old_rate" numeric(38,10) NULL,
        "new_rate" numeric(38,10) NULL,
        "new_symbol" text NULL,
        "new_asset_id" text NULL,
        "description" text NOT NULL,
        "metadata" jsonb NOT NULL DEFAULT '{}',
        "created_at" timestamptz NOT NULL,
        "updated_at" timestamptz NOT NULL,
        CONSTRAINT "corporate_actions_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE,
        CONSTRAINT "corporate_actions_asset_id_fkey" FOREIGN KEY ("asset_id") REFERENCES "assets"("id")
      )`);
    await q.query(
      `CREATE INDEX "corporate_actions_ex_date_idx" ON "corporate_actions" ("ex_date" DESC, "id" DESC)`,
    );
    await q.query(`
      CREATE TABLE "corporate_action_runs" (
        "action_id" text NOT NULL,
        "tenant_id" text NOT NULL,
        "livemode" boolean NOT NULL,
        "processed_at" timestamptz NULL,
        PRIMARY KEY ("action_id", "tenant_id", "livemode"),
        CONSTRAINT "corporate_action_runs_action_id_fkey" FOREIGN KEY ("action_id") REFERENCES "corporate_actions"("id") ON DELETE CASCADE,
        CONSTRAINT "corporate_action_runs_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE
      )`);
    await q.query(`
      CREATE TABLE "corporate_action_entitlements" (
        "action_id" text NOT NULL,
        "tenant_id" text NOT NULL,
        "livemode" boolean NOT NULL,
        "account_id" uuid NOT NULL,
        "investor_id" text NULL,
        "eligible_quantity" numeric(38,8) NOT NULL,
        "cash" numeric(38,8) NOT NULL DEFAULT 0,
        "withholding" numeric(38,8) NOT NULL DEFAULT 0,
        "net_cash" numeric(38,8) NOT NULL DEFAULT 0,
        "quantity_change" numeric(38,8) NOT NULL DEFAULT 0,
        "cash_in_lieu" numeric(38,8) NOT NULL DEFAULT 0,
        "status" text NOT NULL,
        "applied_at" timestamptz NULL,
        "created_at" timestamptz NOT NULL,
        PRIMARY KEY ("action_id", "tenant_id", "livemode", "account_id"),
        CONSTRAINT "corporate_action_entitlements_status_check" CHECK ("status" IN ('pending', 'applied', 'skipped')),
        CONSTRAINT "corporate_action_entitlements_action_id_fkey" FOREIGN KEY ("action_id") REFERENCES "corporate_actions"("id") ON DELETE CASCADE,
        CONSTRAINT "corporate_action_entitlements_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE
      )`);
    await q.query(`
      CREATE TABLE "corporate_action_settings" (
        "tenant_id" text PRIMARY KEY,
        "dividend_withholding_bps" integer NOT NULL,
        "updated_at" timestamptz NOT NULL,
        CONSTRAINT "corporate_action_settings_bps_check" CHECK ("dividend_withholding_bps" BETWEEN 0 AND 10000),
        CONSTRAINT "corporate_action_settings_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE
      )`);
    // Split ratios by which an asset's simulated prices are divided from an instant (the ex date's
    // 04:00), market-wide (tenant_id null) or for one tenant's test mode; keyed by what set them.
    await q.query(`
      CREATE TABLE "asset_price_adjustments" (
        "id" text PRIMARY KEY,
        "asset_id" text NOT NULL,
        "tenant_id" text NULL,
        "factor" numeric(38,18) NOT NULL,
        "effective_at" timestamptz NOT NULL,
        CONSTRAINT "asset_price_adjustments_factor_check" CHECK ("factor" > 0),
        CONSTRAINT "asset_price_adjustments_asset_id_fkey" FOREIGN KEY ("asset_id") REFERENCES "assets"("id") ON DELETE CASCADE,
        CONSTRAINT "asset_price_adjustments_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE
      )`);
    // Holders of an asset in account order: the batches of an action walk this index.
    await q.query(
      `CREATE INDEX "positions_asset_account_idx" ON "positions" ("tenant_id", "livemode", "asset_id", "account_id")`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "positions_asset_account_idx"`);
    await q.query(`DROP TABLE "asset_price_adjustments"`);
    await q.query(`DROP TABLE "corporate_action_settings"`);
    await q.query(`DROP TABLE "corporate_action_entitlements"`);
    await q.query(`DROP TABLE "corporate_action_runs"`);
    await q.query(`DROP TABLE "corporate_actions"`);
  }
}
