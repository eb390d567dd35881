import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Trading: orders (both views in one row), their executions, positions per account and asset, and
 * per-tenant commission terms. Quantities and prices are NUMERIC; the engine finds the open orders of
 * one asset through a partial index, so a price tick touches only that asset's orders.
 */
export class Trading1763920000000 implements MigrationInterface {
  name = 'Trading1763920000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "orders" (
        "id" text PRIMARY KEY,
        "seq" bigint GENERATED ALWAYS AS IDENTITY,
        "tenant_id" text NOT NULL,
        "livemode" boolean NOT NULL,
        "investor_id" text NOT NULL,
        "account_id" uuid NOT NULL,
        "asset_id" text NOT NULL,
        "symbol" text NOT NULL,
        "asset_class" text NOT NULL,
        "market" text NOT NULL,
        "currency" text NOT NULL,
        "side" text NOT NULL,
        "type" text NOT NULL,
        "time_in_force" text NOT NULL,
        "quantity" numeric(38,8) NULL,
        "notional" numeric(38,8) NULL,
        "limit_price" numeric(38,8) NULL,
        "stop_price" numeric(38,8) NULL,
        "trail_percent" numeric(38,8) NULL,
        "trail_price" numeric(38,8) NULL,
        "water_mark" numeric(38,8) NULL,
        "triggered" boolean NOT NULL DEFAULT false,
        "extended_hours" boolean NOT NULL DEFAULT false,
        "client_order_id" text NOT NULL,
        "status" text NOT NULL,
        "filled_quantity" numeric(38,8) NOT NULL DEFAULT 0,
        "filled_notional" numeric(38,8) NOT NULL DEFAULT 0,
        "fill_count" integer NOT NULL DEFAULT 0,
        "commission" numeric(38,8) NOT NULL DEFAULT 0,
        "commission_type" text NOT NULL,
        "commission_rate" numeric(38,8) NOT NULL DEFAULT 0,
        "hold_amount" numeric(38,8) NOT NULL DEFAULT 0,
        "hold_used" numeric(38,8) NOT NULL DEFAULT 0,
        "settlement_date" date NULL,
        "reject_reason" text NULL,
        "cancel_reason" text NULL,
        "metadata" jsonb NOT NULL DEFAULT '{}',
        "created_at" timestamptz NOT NULL,
        "updated_at" timestamptz NOT NULL,
        "filled_at" timestamptz NULL,
        "canceled_at" timestamptz NULL,
        CONSTRAINT "orders_side_check" CHECK ("side" IN ('buy', 'sell')),
        CONSTRAINT "orders_type_check"
          CHECK ("type" IN ('market', 'limit', 'stop', 'stop_limit', 'trailing_stop')),
        CONSTRAINT "orders_tif_check" CHECK ("time_in_force" IN ('day', 'gtc', 'opg', 'cls', 'ioc', 'fok')),
        CONSTRAINT "orders_status_check"
          CHECK ("status" IN ('accepted', 'partially_filled', 'filled', 'canceled', 'rejected')),
        CONSTRAINT "orders_amount_check" CHECK (("quantity" IS NULL) <> ("notional" IS NULL)),
        CONSTRAINT "orders_filled_check" CHECK ("filled_quantity" >= 0 AND ("quantity" IS NULL OR "filled_quantity" <= "quantity")),
        CONSTRAINT "orders_commission_type_check" CHECK ("commission_type" IN ('notional', 'qty', 'bps')),
        CONSTRAINT "orders_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE,
        CONSTRAINT "orders_account_id_fkey" FOREIGN KEY ("account_id")
          REFERENCES "investment_accounts"("id") ON DELETE CASCADE
      )`);
    await q.query(
      `CREATE UNIQUE INDEX "orders_client_order_id_key" ON "orders" ("account_id", "client_order_id")`,
    );
    await q.query(
      `CREATE INDEX "orders_account_created_idx" ON "orders" ("tenant_id", "livemode", "account_id", "created_at", "seq")`,
    );
    await q.query(`CREATE INDEX "orders_account_updated_idx" ON "orders" ("account_id", "updated_at")`);
    await q.query(
      `CREATE INDEX "orders_open_by_asset_idx" ON "orders" ("tenant_id", "livemode", "asset_id", "created_at")
         WHERE "status" IN ('accepted', 'partially_filled')`,
    );
    await q.query(
      `CREATE INDEX "orders_open_by_market_idx" ON "orders" ("tenant_id", "livemode", "market")
         WHERE "status" IN ('accepted', 'partially_filled')`,
    );
    await q.query(`
      CREATE TABLE "executions" (
        "id" text PRIMARY KEY,
        "order_id" text NOT NULL,
        "sequence" integer NOT NULL,
        "tenant_id" text NOT NULL,
        "livemode" boolean NOT NULL,
        "account_id" uuid NOT NULL,
        "asset_id" text NOT NULL,
        "symbol" text NOT NULL,
        "side" text NOT NULL,
        "quantity" numeric(38,8) NOT NULL,
        "price" numeric(38,8) NOT NULL,
        "gross_amount" numeric(38,8) NOT NULL,
        "accrued_interest" numeric(38,8) NOT NULL DEFAULT 0,
        "commission" numeric(38,8) NOT NULL,
        "net_amount" numeric(38,8) NOT NULL,
        "price_source" text NOT NULL,
        "created_at" timestamptz NOT NULL,
        CONSTRAINT "executions_quantity_check" CHECK ("quantity" > 0 AND "price" > 0),
        CONSTRAINT "executions_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE
      )`);
    await q.query(
      `CREATE UNIQUE INDEX "executions_order_sequence_key" ON "executions" ("order_id", "sequence")`,
    );
    await q.query(`
      CREATE TABLE "positions" (
        "id" text PRIMARY KEY,
        "tenant_id" text NOT NULL,
        "livemode" boolean NOT NULL,
        "account_id" uuid NOT NULL,
        "asset_id" text NOT NULL,
        "symbol" text NOT NULL,
        "asset_class" text NOT NULL,
        "currency" text NOT NULL,
        "quantity" numeric(38,8) NOT NULL DEFAULT 0,
        "held_quantity" numeric(38,8) NOT NULL DEFAULT 0,
        "total_cost_basis" numeric(38,8) NOT NULL DEFAULT 0,
        "created_at" timestamptz NOT NULL,
        "updated_at" timestamptz NOT NULL,
        "last_transaction_at" timestamptz NOT NULL,
        CONSTRAINT "positions_quantity_check"
          CHECK ("quantity" >= 0 AND "held_quantity" >= 0 AND "held_quantity" <= "quantity"),
        CONSTRAINT "positions_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE,
        CONSTRAINT "positions_account_id_fkey" FOREIGN KEY ("account_id")
          REFERENCES "investment_accounts"("id") ON DELETE CASCADE
      )`);
    await q.query(
      `CREATE UNIQUE INDEX "positions_account_asset_key" ON "positions" ("account_id", "asset_id")`,
    );
    await q.query(`
      CREATE TABLE "commission_settings" (
        "tenant_id" text PRIMARY KEY,
        "commission_type" text NOT NULL DEFAULT 'notional',
        "amount" numeric(20,4) NOT NULL DEFAULT 0,
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "commission_settings_check"
          CHECK ("commission_type" IN ('notional', 'qty', 'bps') AND "amount" >= 0),
        CONSTRAINT "commission_settings_tenant_id_fkey" FOREIGN KEY ("tenant_id")
          REFERENCES "tenants"("id") ON DELETE CASCADE
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "commission_settings"`);
    await q.query(`DROP TABLE "positions"`);
    await q.query(`DROP TABLE "executions"`);
    await q.query(`DROP TABLE "orders"`);
  }
}
