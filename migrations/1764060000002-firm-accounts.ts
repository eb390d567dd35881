import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The partner's firm account (docs/decisions.md, Firm account and journals): one investment
 * account per tenant and mode with `account_type` `firm` and no investor, ACTIVE from the start.
 * The database opens both in the transaction that creates a tenant (whatever creates it: the API,
 * the CLI or the sandbox admin API), and this migration opens them for the tenants already there.
 * Rows of the firm account (its transfers, bank accounts and orders) carry no investor either.
 */
export class FirmAccounts1764060000002 implements MigrationInterface {
  name = 'FirmAccounts1764060000002';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "investment_accounts" ALTER COLUMN "investor_id" DROP NOT NULL`);
    await q.query(
      `ALTER TABLE "investment_accounts" DROP CONSTRAINT "investment_accounts_account_type_check"`,
    );
    await q.query(
      `ALTER TABLE "investment_accounts" ADD CONSTRAINT "investment_accounts_account_type_check"
         CHECK ("account_type" IN ('trading', 'individual', 'joint', 'ira', 'corporate', 'firm'))`,
    );
    await q.query(
      `ALTER TABLE "investment_accounts" ADD CONSTRAINT "investment_accounts_firm_check"
         CHECK (("account_type" = 'firm') = ("investor_id" IS NULL))`,
    );
    await q.query(
      `CREATE UNIQUE INDEX "investment_accounts_firm_key" ON "investment_accounts" ("tenant_id", "livemode")
         WHERE "account_type" = 'firm'`,
    );
    for (const table of ['transfers', 'funding_sources', 'orders']) {
      await q.query(`ALTER TABLE "${table}" ALTER COLUMN "investor_id" DROP NOT NULL`);
    }
    await q.query(`
      CREATE FUNCTION open_firm_accounts(tenant text) RETURNS void LANGUAGE sql AS $$
        INSERT INTO investment_accounts (id, tenant_id, livemode, investor_id, account_number, status, crypto_status,
          currency, account_type, trading_type, trading_configurations, enabled_assets, email_address, phone_number,
          address, identity, disclosures, kyc_status, created_at, updated_at)
        SELECT gen_random_uuid(), tenant, mode, NULL,
               'F' || upper(substr(md5(tenant || CASE WHEN mode THEN ':live' ELSE ':test' END), 1, 12)),
               'ACTIVE', 'INACTIVE', 'USD', 'firm', 'cash', NULL, ARRAY['us_equity', 'etf']::text[], '', '',
               '{}'::jsonb, '{}'::jsonb, '{}'::jsonb, 'approved', now(), now()
          FROM (VALUES (false), (true)) AS modes(mode)
        ON CONFLICT DO NOTHING
      $$`);
    await q.query(`
      CREATE FUNCTION open_firm_accounts_of_new_tenant() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM open_firm_accounts(NEW.id);
        RETURN NEW;
      END $$`);
    await q.query(
      `CREATE TRIGGER "tenants_open_firm_accounts" AFTER INSERT ON "tenants"
         FOR EACH ROW EXECUTE FUNCTION open_firm_accounts_of_new_tenant()`,
    );
    await q.query(`SELECT open_firm_accounts(id) FROM tenants`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER "tenants_open_firm_accounts" ON "tenants"`);
    await q.query(`DROP FUNCTION open_firm_accounts_of_new_tenant()`);
    await q.query(`DROP FUNCTION open_firm_accounts(text)`);
    await q.query(`DELETE FROM "investment_accounts" WHERE "account_type" = 'firm'`);
    for (const table of ['transfers', 'funding_sources', 'orders']) {
      await q.query(`ALTER TABLE "${table}" ALTER COLUMN "investor_id" SET NOT NULL`);
    }
    await q.query(`DROP INDEX "investment_accounts_firm_key"`);
    await q.query(`ALTER TABLE "investment_accounts" DROP CONSTRAINT "investment_accounts_firm_check"`);
    await q.query(
      `ALTER TABLE "investment_accounts" DROP CONSTRAINT "investment_accounts_account_type_check"`,
    );
    await q.query(
      `ALTER TABLE "investment_accounts" ADD CONSTRAINT "investment_accounts_account_type_check"
         CHECK ("account_type" IN ('trading', 'individual', 'joint', 'ira', 'corporate'))`,
    );
    await q.query(`ALTER TABLE "investment_accounts" ALTER COLUMN "investor_id" SET NOT NULL`);
  }
}
