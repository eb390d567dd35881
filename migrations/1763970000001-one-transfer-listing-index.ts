import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An investor has exactly one account (investment_accounts.investor_id is unique), so the envelope
 * lists of an investor's deposits and withdrawals read through the account's index
 * (transfers_account_created_idx, filtering the type) and the second listing index goes: every
 * transfer row paid for both.
 */
export class OneTransferListingIndex1763970000001 implements MigrationInterface {
  name = 'OneTransferListingIndex1763970000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "transfers_investor_type_created_idx"`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX "transfers_investor_type_created_idx"
         ON "transfers" ("tenant_id", "livemode", "investor_id", "type", "created_at", "id")`,
    );
  }
}
