import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A tenant created after support imported market-wide corporate actions processes them too: each
 * announcement keeps the instant it applies at (04:00 of its ex date in its market's time zone, kept
 * by the service on every insert and correction) and a trigger on new tenants schedules the
 * `corporate_actions.process` start job of every market-wide announcement not canceled, in both
 * modes, exactly as an import schedules it for the tenants that exist (same dedupe key and payload).
 */
export class CorporateActionsReachNewTenants1764100000001 implements MigrationInterface {
  name = 'CorporateActionsReachNewTenants1764100000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "corporate_actions" ADD COLUMN "applies_at" timestamptz NULL`);
    await q.query(`
      UPDATE "corporate_actions" SET "applies_at" = ("ex_date" + time '04:00') AT TIME ZONE
        CASE "market" WHEN 'XNSA' THEN 'Africa/Lagos' WHEN 'XNAI' THEN 'Africa/Nairobi' ELSE 'America/New_York' END`);
    await q.query(`ALTER TABLE "corporate_actions" ALTER COLUMN "applies_at" SET NOT NULL`);
    await q.query(`
      CREATE FUNCTION schedule_market_corporate_actions_of_new_tenant() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO scheduled_jobs (id, tenant_id, livemode, kind, dedupe_key, due_at, payload)
        SELECT gen_random_uuid(), NEW.id, modes.mode, 'corporate_actions.process',
               a.id || ':start:' || a.ex_date::text, a.applies_at,
               jsonb_build_object('actionId', a.id, 'step', 'start', 'exDate', a.ex_date::text)
          FROM corporate_actions a CROSS JOIN (VALUES (false), (true)) AS modes(mode)
         WHERE a.tenant_id IS NULL AND a.canceled_at IS NULL
        ON CONFLICT DO NOTHING;
        RETURN NEW;
      END $$`);
    await q.query(
      `CREATE TRIGGER "tenants_schedule_market_corporate_actions" AFTER INSERT ON "tenants"
         FOR EACH ROW EXECUTE FUNCTION schedule_market_corporate_actions_of_new_tenant()`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER "tenants_schedule_market_corporate_actions" ON "tenants"`);
    await q.query(`DROP FUNCTION schedule_market_corporate_actions_of_new_tenant()`);
    await q.query(`ALTER TABLE "corporate_actions" DROP COLUMN "applies_at"`);
  }
}
