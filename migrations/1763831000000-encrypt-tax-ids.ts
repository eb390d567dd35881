import { MigrationInterface, QueryRunner } from 'typeorm';
import { dataBoxFromEnvironment } from 'src/core/crypto/data-encryption';
import { SecretBox } from 'src/core/crypto/secret-box';
import { taxIdLast4 } from 'src/modules/accounts/tax-id-last4';

const BATCH = 500;

/**
 * Tax ids are stored encrypted (AES-256-GCM under DATA_ENCRYPTION_KEY) in `tax_id_ciphertext`,
 * with their last four characters in clear in `tax_id_last4` for display. Existing rows are
 * sealed here, in batches, inside the migration's transaction.
 */
export class EncryptTaxIds1763831000000 implements MigrationInterface {
  name = 'EncryptTaxIds1763831000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "investment_accounts" RENAME COLUMN "tax_id" TO "tax_id_ciphertext"`);
    await q.query(`ALTER TABLE "investment_accounts" ADD "tax_id_last4" text NULL`);
    const box = dataBoxFromEnvironment('personal-data');
    await rewrite(q, (plain) => (SecretBox.isSealed(plain) ? null : [box.seal(plain), taxIdLast4(plain)]));
  }

  async down(q: QueryRunner): Promise<void> {
    const box = dataBoxFromEnvironment('personal-data');
    await rewrite(q, (sealed) => (SecretBox.isSealed(sealed) ? [box.open(sealed), null] : null));
    await q.query(`ALTER TABLE "investment_accounts" DROP COLUMN "tax_id_last4"`);
    await q.query(`ALTER TABLE "investment_accounts" RENAME COLUMN "tax_id_ciphertext" TO "tax_id"`);
  }
}

/** Rewrites every stored tax id through `convert` (null: leave the row as it is), by id order. */
async function rewrite(
  q: QueryRunner,
  convert: (stored: string) => [value: string, last4: string | null] | null,
): Promise<void> {
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const rows: Array<{ id: string; tax_id_ciphertext: string }> = await q.query(
      `SELECT "id", "tax_id_ciphertext" FROM "investment_accounts"
        WHERE "tax_id_ciphertext" IS NOT NULL AND "id" > $1 ORDER BY "id" LIMIT $2`,
      [after, BATCH],
    );
    if (rows.length === 0) {
      return;
    }
    after = rows[rows.length - 1].id;
    const changes = rows.flatMap((row) => {
      const converted = convert(row.tax_id_ciphertext);
      return converted ? [{ id: row.id, value: converted[0], last4: converted[1] }] : [];
    });
    if (changes.length > 0) {
      await q.query(
        `UPDATE "investment_accounts" AS a SET "tax_id_ciphertext" = c.value, "tax_id_last4" = c.last4
           FROM unnest($1::uuid[], $2::text[], $3::text[]) AS c(id, value, last4) WHERE a."id" = c.id`,
        [changes.map((c) => c.id), changes.map((c) => c.value), changes.map((c) => c.last4)],
      );
    }
  }
}
