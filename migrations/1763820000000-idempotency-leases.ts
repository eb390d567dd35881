import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An in-flight Idempotency-Key is leased by the process running its request: `owner_token`
 * names the reservation and `lease_expires_at` is renewed while the request runs. A key whose
 * lease ran out (its process died) is free again.
 */
export class IdempotencyLeases1763820000000 implements MigrationInterface {
  name = 'IdempotencyLeases1763820000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "idempotency_keys" ADD "owner_token" text NULL`);
    await q.query(`ALTER TABLE "idempotency_keys" ADD "lease_expires_at" timestamptz NULL`);
    await q.query(
      `CREATE INDEX "idempotency_keys_owner_token_idx" ON "idempotency_keys" ("owner_token") WHERE "owner_token" IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "idempotency_keys_owner_token_idx"`);
    await q.query(`ALTER TABLE "idempotency_keys" DROP COLUMN "lease_expires_at"`);
    await q.query(`ALTER TABLE "idempotency_keys" DROP COLUMN "owner_token"`);
  }
}
