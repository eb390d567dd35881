import { MigrationInterface, QueryRunner } from 'typeorm';

/** Assets, bond terms, test-mode price overrides, and the indexes asset search relies on. */
export class Assets1763810000000 implements MigrationInterface {
  name = 'Assets1763810000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    await q.query(`
      CREATE TABLE "assets" (
        "id" text PRIMARY KEY,
        "class" text NOT NULL,
        "country" text NULL,
        "market" text NOT NULL,
        "market_name" text NOT NULL,
        "market_country" text NULL,
        "market_currency" text NOT NULL,
        "symbol" text NOT NULL,
        "name" text NOT NULL,
        "status" text NOT NULL,
        "tradable" boolean NOT NULL,
        "marginable" boolean NOT NULL,
        "shortable" boolean NOT NULL,
        "easy_to_borrow" boolean NOT NULL,
        "fractionable" boolean NOT NULL,
        "fractional_eh_enabled" boolean NOT NULL,
        "currency" text NOT NULL,
        "reference_price" numeric(24,10) NOT NULL,
        "last_synced_at" timestamptz NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "assets_class_check" CHECK ("class" IN ('equity', 'etf', 'bond', 'bill', 'note', 'mutual_fund', 'derivative', 'cryptocurrency', 'commodity', 'real_estate', 'cash')),
        CONSTRAINT "assets_status_check" CHECK ("status" IN ('active', 'inactive'))
      )`);
    await q.query(`CREATE UNIQUE INDEX "assets_market_symbol_key" ON "assets" ("market", "symbol")`);
    // Exact and prefix matches (and their ordering) on the upper-cased ticker and lower-cased name.
    await q.query(`CREATE INDEX "assets_symbol_upper_idx" ON "assets" ((upper("symbol") COLLATE "C"))`);
    await q.query(`CREATE INDEX "assets_name_lower_idx" ON "assets" ((lower("name") COLLATE "C"))`);
    // Partial (substring, case-insensitive) matches.
    await q.query(`CREATE INDEX "assets_symbol_trgm_idx" ON "assets" USING gin ("symbol" gin_trgm_ops)`);
    await q.query(`CREATE INDEX "assets_name_trgm_idx" ON "assets" USING gin ("name" gin_trgm_ops)`);

    await q.query(`
      CREATE TABLE "asset_bonds" (
        "asset_id" text PRIMARY KEY,
        "cusip" text NOT NULL,
        "isin" text NOT NULL,
        "bond_status" text NOT NULL,
        "bond_type" text NOT NULL,
        "bond_subtype" text NULL,
        "maturity_date" date NULL,
        "issue_date" date NULL,
        "dated_date" date NULL,
        "first_coupon_date" date NULL,
        "last_coupon_date" date NULL,
        "coupon_rate" numeric(12,8) NOT NULL,
        "coupon_type" text NOT NULL,
        "coupon_frequency" smallint NOT NULL,
        "accrual_basis" text NOT NULL,
        "face_value" numeric(20,4) NOT NULL,
        "min_increment" numeric(20,4) NOT NULL,
        "settlement_period" smallint NOT NULL,
        "reference_price_date" date NULL,
        "callable" boolean NOT NULL,
        "puttable" boolean NOT NULL,
        "convertible" boolean NOT NULL,
        "perpetual" boolean NOT NULL,
        "next_call_date" date NULL,
        "next_call_price" numeric(12,6) NULL,
        "call_type" text NULL,
        "issuer" text NULL,
        "ticker" text NULL,
        "sector" text NULL,
        "seniority" text NULL,
        "country_domicile" text NULL,
        "rating" text NULL,
        "sp_rating" text NULL,
        "sp_outlook" text NULL,
        CONSTRAINT "asset_bonds_asset_id_fkey" FOREIGN KEY ("asset_id") REFERENCES "assets"("id") ON DELETE CASCADE,
        CONSTRAINT "asset_bonds_bond_status_check" CHECK ("bond_status" IN ('outstanding', 'pre_issuance', 'matured')),
        CONSTRAINT "asset_bonds_bond_type_check" CHECK ("bond_type" IN ('treasury', 'corporate', 'municipal', 'agency', 'sovereign')),
        CONSTRAINT "asset_bonds_coupon_frequency_check" CHECK ("coupon_frequency" IN (0, 1, 2, 4, 12)),
        CONSTRAINT "asset_bonds_accrual_basis_check" CHECK ("accrual_basis" IN ('ACT/ACT', 'ACT/360', '30/360', 'ACT/365'))
      )`);
    await q.query(`CREATE UNIQUE INDEX "asset_bonds_cusip_key" ON "asset_bonds" ("cusip")`);
    await q.query(`CREATE UNIQUE INDEX "asset_bonds_isin_key" ON "asset_bonds" ("isin")`);

    await q.query(`
      CREATE TABLE "asset_price_overrides" (
        "tenant_id" text NOT NULL,
        "asset_id" text NOT NULL,
        "price" numeric(24,10) NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY ("tenant_id", "asset_id"),
        CONSTRAINT "asset_price_overrides_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE,
        CONSTRAINT "asset_price_overrides_asset_id_fkey" FOREIGN KEY ("asset_id") REFERENCES "assets"("id") ON DELETE CASCADE
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "asset_price_overrides"`);
    await q.query(`DROP TABLE "asset_bonds"`);
    await q.query(`DROP TABLE "assets"`);
  }
}
