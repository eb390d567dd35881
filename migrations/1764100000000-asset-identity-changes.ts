import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What symbol changes and mergers change about an asset (DECISIONS.md, Corporate actions): its
 * symbol (the asset keeps its id) or its status (inactive and not tradable after a merger), from
 * 04:00 of the ex date, market-wide (tenant_id null) or for one tenant's test mode, as split ratios
 * divide prices (asset_price_adjustments). Keyed by the action that makes the change.
 */
export class AssetIdentityChanges1764100000000 implements MigrationInterface {
  name = 'AssetIdentityChanges1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "asset_identity_changes" (
        "id" text PRIMARY KEY,
        "asset_id" text NOT NULL,
        "tenant_id" text NULL,
        "new_symbol" text NULL,
        "inactive" boolean NOT NULL,
        "effective_at" timestamptz NOT NULL,
        CONSTRAINT "asset_identity_changes_what_check" CHECK ("new_symbol" IS NOT NULL OR "inactive"),
        CONSTRAINT "asset_identity_changes_id_fkey" FOREIGN KEY ("id") REFERENCES "corporate_actions"("id") ON DELETE CASCADE,
        CONSTRAINT "asset_identity_changes_asset_id_fkey" FOREIGN KEY ("asset_id") REFERENCES "assets"("id") ON DELETE CASCADE,
        CONSTRAINT "asset_identity_changes_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "asset_identity_changes"`);
  }
}
