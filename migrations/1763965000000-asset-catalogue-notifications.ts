import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Notifications that let every process keep asset search results in memory: any committed change of
 * the assets, their bond terms or their search terms sends `asset_catalogue` (once per statement,
 * and PostgreSQL folds repeats within a transaction into one); a change of a tenant's test-mode
 * price overrides sends `asset_price_overrides` with the tenant id (an empty payload after TRUNCATE:
 * every tenant). Notifications leave at commit, so a listener never hears of a change it cannot
 * read yet.
 */
export class AssetCatalogueNotifications1763965000000 implements MigrationInterface {
  name = 'AssetCatalogueNotifications1763965000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION "asset_catalogue_notify"() RETURNS trigger
      LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('asset_catalogue', '');
        RETURN NULL;
      END
      $$`);
    for (const table of ['assets', 'asset_bonds', 'asset_search_terms']) {
      await q.query(`
        CREATE TRIGGER "${table}_catalogue_notify" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "${table}"
        FOR EACH STATEMENT EXECUTE FUNCTION "asset_catalogue_notify"()`);
    }
    await q.query(`
      CREATE FUNCTION "asset_price_overrides_notify"() RETURNS trigger
      LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'TRUNCATE' THEN
          PERFORM pg_notify('asset_price_overrides', '');
          RETURN NULL;
        END IF;
        IF TG_OP IN ('UPDATE', 'DELETE') THEN
          PERFORM pg_notify('asset_price_overrides', OLD."tenant_id");
        END IF;
        IF TG_OP IN ('INSERT', 'UPDATE') THEN
          PERFORM pg_notify('asset_price_overrides', NEW."tenant_id");
        END IF;
        RETURN NULL;
      END
      $$`);
    await q.query(`
      CREATE TRIGGER "asset_price_overrides_notify" AFTER INSERT OR UPDATE OR DELETE ON "asset_price_overrides"
      FOR EACH ROW EXECUTE FUNCTION "asset_price_overrides_notify"()`);
    await q.query(`
      CREATE TRIGGER "asset_price_overrides_truncate_notify" AFTER TRUNCATE ON "asset_price_overrides"
      FOR EACH STATEMENT EXECUTE FUNCTION "asset_price_overrides_notify"()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER "asset_price_overrides_truncate_notify" ON "asset_price_overrides"`);
    await q.query(`DROP TRIGGER "asset_price_overrides_notify" ON "asset_price_overrides"`);
    await q.query(`DROP FUNCTION "asset_price_overrides_notify"()`);
    for (const table of ['assets', 'asset_bonds', 'asset_search_terms']) {
      await q.query(`DROP TRIGGER "${table}_catalogue_notify" ON "${table}"`);
    }
    await q.query(`DROP FUNCTION "asset_catalogue_notify"()`);
  }
}
