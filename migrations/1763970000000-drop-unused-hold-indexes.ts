import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Drops the two partial indexes of pending holds by account. No query reads through them: holds are
 * found by their key (ledger_holds_key), pending totals live on ledger_accounts, and the ledger
 * audit sums every pending hold at once (a scan either way). Each hold paid two index insertions,
 * and every deposit's hold inserted the same debit account (the tenant's bank clearing account)
 * into one hot leaf page, which concurrent deposits fought over (bench/transfers).
 */
export class DropUnusedHoldIndexes1763970000000 implements MigrationInterface {
  name = 'DropUnusedHoldIndexes1763970000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "ledger_holds_debit_pending_idx"`);
    await q.query(`DROP INDEX "ledger_holds_credit_pending_idx"`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX "ledger_holds_debit_pending_idx" ON "ledger_holds" ("debit_account_id") WHERE "status" = 'pending'`,
    );
    await q.query(
      `CREATE INDEX "ledger_holds_credit_pending_idx" ON "ledger_holds" ("credit_account_id") WHERE "status" = 'pending'`,
    );
  }
}
