import { MigrationInterface, QueryRunner } from 'typeorm';
import { dataBoxFromEnvironment } from 'src/core/crypto/data-encryption';

/**
 * Stored idempotent responses are kept sealed (AES-256-GCM under DATA_ENCRYPTION_KEY): some carry
 * a secret shown once (a new API key's secret, a webhook signing secret) and most carry personal
 * data. The JSON column gives way to `response_body_sealed`; stored bodies are sealed here.
 */
export class SealIdempotentResponses1763831000001 implements MigrationInterface {
  name = 'SealIdempotentResponses1763831000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "idempotency_keys" ADD "response_body_sealed" text NULL`);
    const box = dataBoxFromEnvironment('idempotent-responses');
    const rows: Array<{ tenant_id: string; livemode: boolean; key: string; body: string }> = await q.query(
      `SELECT "tenant_id", "livemode", "key", "response_body"::text AS body
         FROM "idempotency_keys" WHERE "response_body" IS NOT NULL`,
    );
    for (const row of rows) {
      await q.query(
        `UPDATE "idempotency_keys" SET "response_body_sealed" = $4
          WHERE "tenant_id" = $1 AND "livemode" = $2 AND "key" = $3`,
        [row.tenant_id, row.livemode, row.key, box.seal(row.body)],
      );
    }
    await q.query(`ALTER TABLE "idempotency_keys" DROP COLUMN "response_body"`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "idempotency_keys" ADD "response_body" jsonb NULL`);
    const box = dataBoxFromEnvironment('idempotent-responses');
    const rows: Array<{ tenant_id: string; livemode: boolean; key: string; sealed: string }> = await q.query(
      `SELECT "tenant_id", "livemode", "key", "response_body_sealed" AS sealed
         FROM "idempotency_keys" WHERE "response_body_sealed" IS NOT NULL`,
    );
    for (const row of rows) {
      await q.query(
        `UPDATE "idempotency_keys" SET "response_body" = $4::jsonb
          WHERE "tenant_id" = $1 AND "livemode" = $2 AND "key" = $3`,
        [row.tenant_id, row.livemode, row.key, box.open(row.sealed)],
      );
    }
    await q.query(`ALTER TABLE "idempotency_keys" DROP COLUMN "response_body_sealed"`);
  }
}
