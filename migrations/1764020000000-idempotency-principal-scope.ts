import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Idempotency-Keys are scoped to the principal that sent them: tenant, mode and the investor scope
 * of the key or token (`principal_scope`: the investor id, or '' for a tenant-level key). A key an
 * investor key used is a new request for another investor's key or a tenant-level key, never a
 * replay of someone else's stored response. Rows written before keep '' (tenant-level): they expire
 * within 24 h.
 */
export class IdempotencyPrincipalScope1764020000000 implements MigrationInterface {
  name = 'IdempotencyPrincipalScope1764020000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "idempotency_keys" ADD "principal_scope" text NOT NULL DEFAULT ''`);
    await q.query(`ALTER TABLE "idempotency_keys" DROP CONSTRAINT "idempotency_keys_pkey"`);
    await q.query(
      `ALTER TABLE "idempotency_keys"
         ADD CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY ("tenant_id", "livemode", "principal_scope", "key")`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM "idempotency_keys" WHERE "principal_scope" <> ''`);
    await q.query(`ALTER TABLE "idempotency_keys" DROP CONSTRAINT "idempotency_keys_pkey"`);
    await q.query(
      `ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY ("tenant_id", "livemode", "key")`,
    );
    await q.query(`ALTER TABLE "idempotency_keys" DROP COLUMN "principal_scope"`);
  }
}
