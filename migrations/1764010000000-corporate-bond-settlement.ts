import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Corporate bonds settle T+2 (spec, Bond attributes and the bond order rules), which their orders
 * always used; the reference data loaded by AssetReferenceData1763810000001 gave them 1, so their
 * records and quotes said T+1. Databases loaded before the data was corrected get the same
 * settlement_period a fresh load writes now.
 */
export class CorporateBondSettlement1764010000000 implements MigrationInterface {
  name = 'CorporateBondSettlement1764010000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE "asset_bonds" SET "settlement_period" = 2 WHERE "bond_type" = 'corporate'`);
    await q.query(`UPDATE "asset_bonds" SET "settlement_period" = 1 WHERE "bond_type" = 'treasury'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE "asset_bonds" SET "settlement_period" = 1 WHERE "bond_type" = 'corporate'`);
  }
}
