import { MigrationInterface, QueryRunner } from 'typeorm';

/** A 22-character url-safe random suffix, as `newId` makes them. */
const RANDOM_SUFFIX = `substr(translate(encode(decode(replace(gen_random_uuid()::text, '-', ''), 'hex'), 'base64'), '+/=', '-_'), 1, 22)`;

/**
 * Cash sweep: APR tiers, each account's enrollment, the daily interest history and the monthly
 * payouts. Accounts opened before this release are enrolled in their tenant's `standard` tier
 * from today, and each tenant's first accrual day is scheduled.
 */
export class CashSweep1763930000000 implements MigrationInterface {
  name = 'CashSweep1763930000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "cash_sweep_tiers" (
        "id" text PRIMARY KEY,
        "tenant_id" text NOT NULL,
        "livemode" boolean NOT NULL,
        "name" text NOT NULL,
        "currency" text NOT NULL,
        "account_rate_bps" integer NOT NULL,
        "correspondent_rate_bps" integer NOT NULL,
        "is_default" boolean NOT NULL DEFAULT false,
        "status" text NOT NULL DEFAULT 'active',
        "metadata" jsonb NOT NULL DEFAULT '{}',
        "created_at" timestamptz NOT NULL,
        "updated_at" timestamptz NOT NULL,
        CONSTRAINT "cash_sweep_tiers_status_check" CHECK ("status" IN ('active', 'retired')),
        CONSTRAINT "cash_sweep_tiers_rates_check" CHECK (
          "account_rate_bps" BETWEEN 0 AND 10000 AND "correspondent_rate_bps" BETWEEN 0 AND 10000
          AND "account_rate_bps" + "correspondent_rate_bps" <= 10000),
        CONSTRAINT "cash_sweep_tiers_default_active_check" CHECK (NOT "is_default" OR "status" = 'active'),
        CONSTRAINT "cash_sweep_tiers_tenant_id_fkey" FOREIGN KEY ("tenant_id")
          REFERENCES "tenants"("id") ON DELETE CASCADE
      )`);
    await q.query(
      `CREATE UNIQUE INDEX "cash_sweep_tiers_default_key"
         ON "cash_sweep_tiers" ("tenant_id", "livemode", "currency") WHERE "is_default"`,
    );
    await q.query(
      `CREATE UNIQUE INDEX "cash_sweep_tiers_active_name_key"
         ON "cash_sweep_tiers" ("tenant_id", "livemode", "currency", lower("name")) WHERE "status" = 'active'`,
    );
    await q.query(
      `CREATE INDEX "cash_sweep_tiers_tenant_created_idx"
         ON "cash_sweep_tiers" ("tenant_id", "livemode", "created_at", "id")`,
    );
    await q.query(`
      CREATE TABLE "cash_sweep_enrollments" (
        "account_id" uuid NOT NULL,
        "currency" text NOT NULL,
        "tenant_id" text NOT NULL,
        "livemode" boolean NOT NULL,
        "investor_id" text NOT NULL,
        "status" text NOT NULL,
        "tier_id" text NULL,
        "accrual_start" date NOT NULL,
        "created_at" timestamptz NOT NULL,
        "updated_at" timestamptz NOT NULL,
        PRIMARY KEY ("account_id", "currency"),
        CONSTRAINT "cash_sweep_enrollments_status_check" CHECK (
          ("status" = 'enrolled' AND "tier_id" IS NOT NULL) OR ("status" = 'opted_out' AND "tier_id" IS NULL)),
        CONSTRAINT "cash_sweep_enrollments_account_id_fkey" FOREIGN KEY ("account_id")
          REFERENCES "investment_accounts"("id") ON DELETE CASCADE,
        CONSTRAINT "cash_sweep_enrollments_tier_id_fkey" FOREIGN KEY ("tier_id")
          REFERENCES "cash_sweep_tiers"("id")
      )`);
    await q.query(
      `CREATE INDEX "cash_sweep_enrollments_scope_idx"
         ON "cash_sweep_enrollments" ("tenant_id", "livemode", "currency", "status")`,
    );
    await q.query(`CREATE INDEX "cash_sweep_enrollments_tier_idx" ON "cash_sweep_enrollments" ("tier_id")`);
    await q.query(`
      CREATE TABLE "cash_sweep_interest" (
        "account_id" uuid NOT NULL,
        "currency" text NOT NULL,
        "date" date NOT NULL,
        "tenant_id" text NOT NULL,
        "livemode" boolean NOT NULL,
        "investor_id" text NOT NULL,
        "apr_tier_id" text NOT NULL,
        "apr_tier_name" text NOT NULL,
        "cash_balance" numeric(38,8) NOT NULL,
        "account_rate_bps" integer NOT NULL,
        "account_accrued_interest" numeric(38,8) NOT NULL,
        "correspondent_rate_bps" integer NOT NULL,
        "correspondent_fee" numeric(38,8) NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY ("account_id", "currency", "date"),
        CONSTRAINT "cash_sweep_interest_account_id_fkey" FOREIGN KEY ("account_id")
          REFERENCES "investment_accounts"("id") ON DELETE CASCADE
      )`);
    await q.query(
      `CREATE INDEX "cash_sweep_interest_investor_idx"
         ON "cash_sweep_interest" ("tenant_id", "livemode", "investor_id", "date", "currency")`,
    );
    await q.query(
      `CREATE INDEX "cash_sweep_interest_scope_date_idx"
         ON "cash_sweep_interest" ("tenant_id", "livemode", "currency", "date")`,
    );
    await q.query(`
      CREATE TABLE "cash_sweep_payouts" (
        "id" text PRIMARY KEY,
        "tenant_id" text NOT NULL,
        "livemode" boolean NOT NULL,
        "account_id" uuid NOT NULL,
        "investor_id" text NOT NULL,
        "currency" text NOT NULL,
        "month" text NOT NULL,
        "amount" numeric(38,8) NOT NULL,
        "accrued_interest" numeric(38,8) NOT NULL,
        "correspondent_fee" numeric(38,8) NOT NULL,
        "days" integer NOT NULL,
        "paid_at" timestamptz NOT NULL,
        CONSTRAINT "cash_sweep_payouts_month_key" UNIQUE ("account_id", "currency", "month"),
        CONSTRAINT "cash_sweep_payouts_amount_check" CHECK ("amount" > 0),
        CONSTRAINT "cash_sweep_payouts_account_id_fkey" FOREIGN KEY ("account_id")
          REFERENCES "investment_accounts"("id") ON DELETE CASCADE
      )`);
    await q.query(
      `CREATE INDEX "cash_sweep_payouts_scope_idx"
         ON "cash_sweep_payouts" ("tenant_id", "livemode", "paid_at", "id")`,
    );
    await this.enrollExistingAccounts(q);
  }

  /** Accounts already open: the `standard` tier per tenant, mode and currency, enrolled from today. */
  private async enrollExistingAccounts(q: QueryRunner): Promise<void> {
    await q.query(`
      INSERT INTO "cash_sweep_tiers" ("id", "tenant_id", "livemode", "name", "currency", "account_rate_bps",
                                      "correspondent_rate_bps", "is_default", "created_at", "updated_at")
      SELECT 'apr_' || ${RANDOM_SUFFIX}, s.tenant_id, s.livemode, 'standard', s.currency, 350, 50, true, now(), now()
        FROM (SELECT DISTINCT tenant_id, livemode, currency FROM "investment_accounts") s`);
    await q.query(`
      INSERT INTO "cash_sweep_enrollments" ("account_id", "currency", "tenant_id", "livemode", "investor_id",
                                            "status", "tier_id", "accrual_start", "created_at", "updated_at")
      SELECT a.id, a.currency, a.tenant_id, a.livemode, a.investor_id, 'enrolled', t.id,
             (now() AT TIME ZONE 'America/New_York')::date, now(), now()
        FROM "investment_accounts" a
        JOIN "cash_sweep_tiers" t
          ON t.tenant_id = a.tenant_id AND t.livemode = a.livemode AND t.currency = a.currency AND t.is_default`);
    await q.query(`
      INSERT INTO "scheduled_jobs" ("id", "tenant_id", "livemode", "kind", "dedupe_key", "due_at", "payload")
      SELECT gen_random_uuid(), s.tenant_id, s.livemode, 'cash_sweep.accrue_day',
             s.currency || ':' || to_char(s.today, 'YYYY-MM-DD'),
             ((s.today + 1)::timestamp AT TIME ZONE 'America/New_York'),
             jsonb_build_object('currency', s.currency, 'date', to_char(s.today, 'YYYY-MM-DD'))
        FROM (SELECT DISTINCT tenant_id, livemode, currency, (now() AT TIME ZONE 'America/New_York')::date AS today
                FROM "cash_sweep_enrollments") s
      ON CONFLICT DO NOTHING`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM "scheduled_jobs" WHERE "kind" LIKE 'cash_sweep.%'`);
    await q.query(`DROP TABLE "cash_sweep_payouts"`);
    await q.query(`DROP TABLE "cash_sweep_interest"`);
    await q.query(`DROP TABLE "cash_sweep_enrollments"`);
    await q.query(`DROP TABLE "cash_sweep_tiers"`);
  }
}
