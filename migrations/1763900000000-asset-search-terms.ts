import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Precomputed search keys for asset names: one row per word start of the lower-cased name, holding
 * the rest of the name from there ("bank of america corporation", "of america corporation", ...).
 * "A word of the name starts with q" becomes a btree range scan (term LIKE 'q%') that reads the
 * matches in key order and stops after a bounded number, instead of a trigram scan that reads and
 * ranks every name containing q. A trigger keeps the terms in step with the assets' names.
 */
export class AssetSearchTerms1763900000000 implements MigrationInterface {
  name = 'AssetSearchTerms1763900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "asset_search_terms" (
        "term" text COLLATE "C" NOT NULL,
        "asset_id" text NOT NULL REFERENCES "assets" ("id") ON DELETE CASCADE
      )`);
    await q.query(`
      CREATE FUNCTION "asset_search_terms_of"(name text) RETURNS SETOF text
      LANGUAGE sql IMMUTABLE AS $$
        SELECT substr(lower(name), p.i) FROM generate_series(1, length(name)) AS p(i)
        WHERE p.i = 1 OR substr(name, p.i - 1, 1) = ' '
      $$`);
    await q.query(`
      CREATE FUNCTION "asset_search_terms_sync"() RETURNS trigger
      LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'UPDATE' THEN
          IF NEW."name" IS NOT DISTINCT FROM OLD."name" THEN
            RETURN NEW;
          END IF;
          DELETE FROM "asset_search_terms" WHERE "asset_id" = NEW."id";
        END IF;
        INSERT INTO "asset_search_terms" ("term", "asset_id")
          SELECT t, NEW."id" FROM "asset_search_terms_of"(NEW."name") AS t;
        RETURN NEW;
      END
      $$`);
    await q.query(`
      CREATE TRIGGER "assets_search_terms" AFTER INSERT OR UPDATE OF "name" ON "assets"
      FOR EACH ROW EXECUTE FUNCTION "asset_search_terms_sync"()`);
    await q.query(`
      INSERT INTO "asset_search_terms" ("term", "asset_id")
      SELECT t, a."id" FROM "assets" a, "asset_search_terms_of"(a."name") AS t`);
    await q.query(`CREATE INDEX "asset_search_terms_term_idx" ON "asset_search_terms" ("term", "asset_id")`);
    await q.query(`CREATE INDEX "asset_search_terms_asset_idx" ON "asset_search_terms" ("asset_id")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER "assets_search_terms" ON "assets"`);
    await q.query(`DROP FUNCTION "asset_search_terms_sync"()`);
    await q.query(`DROP TABLE "asset_search_terms"`);
    await q.query(`DROP FUNCTION "asset_search_terms_of"(text)`);
  }
}
