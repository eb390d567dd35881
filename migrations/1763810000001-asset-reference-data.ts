import { MigrationInterface, QueryRunner } from 'typeorm';
import { importAssetFiles, REFERENCE_DATA_FILES } from 'src/modules/assets/import/assets-importer';

/**
 * Loads the reference data shipped in src/modules/assets/data (US equities and ETFs, NGX and NSE
 * equities, cryptocurrencies, Treasuries and corporate bonds). Upserts by id, so running it over
 * existing rows refreshes them; later refreshes use `assets:import`.
 */
export class AssetReferenceData1763810000001 implements MigrationInterface {
  name = 'AssetReferenceData1763810000001';

  async up(q: QueryRunner): Promise<void> {
    await importAssetFiles(q, REFERENCE_DATA_FILES);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM "assets"`);
  }
}
