import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Account activities (docs/decisions.md, Activities): one row per change of an account's cash or
 * positions, written in the transaction of the change. `position` orders rows as they were written;
 * `seq` (and the public `id` built from it) is given when a reader first sees the row committed,
 * so ids grow in the order activities become visible and paging by id never skips one that
 * committed late (docs/decisions.md, Activities).
 */
export class Activities1764050000000 implements MigrationInterface {
  name = 'Activities1764050000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SEQUENCE "activities_seq" AS bigint`);
    await q.query(`
      CREATE TABLE "activities" (
        "position" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        "seq" bigint,
        "id" text,
        "tenant_id" text NOT NULL,
        "livemode" boolean NOT NULL,
        "account_id" uuid NOT NULL,
        "source_key" text NOT NULL,
        "activity_type" text NOT NULL,
        "status" text NOT NULL,
        "date" date NOT NULL,
        "transaction_time" timestamptz NOT NULL,
        "currency" text NOT NULL,
        "net_amount" numeric NOT NULL,
        "symbol" text,
        "qty" numeric,
        "price" numeric,
        "per_share_amount" numeric,
        "side" text,
        "order_id" text,
        "transaction_id" text,
        "corporate_action_id" text,
        "journal_id" text,
        "conversion_id" text,
        "description" text,
        CONSTRAINT "activities_status_check" CHECK ("status" IN ('executed', 'canceled', 'correct')),
        CONSTRAINT "activities_side_check" CHECK ("side" IS NULL OR "side" IN ('buy', 'sell')),
        CONSTRAINT "activities_id_seq_check" CHECK (("id" IS NULL) = ("seq" IS NULL)),
        CONSTRAINT "activities_tenant_id_fkey" FOREIGN KEY ("tenant_id")
          REFERENCES "tenants"("id") ON DELETE CASCADE
      )`);
    await q.query(
      `CREATE UNIQUE INDEX "activities_source_key" ON "activities" ("tenant_id", "livemode", "source_key")`,
    );
    await q.query(`CREATE UNIQUE INDEX "activities_id_key" ON "activities" ("id")`);
    await q.query(
      `CREATE INDEX "activities_account_seq_idx" ON "activities" ("account_id", "seq") WHERE "seq" IS NOT NULL`,
    );
    await q.query(
      `CREATE INDEX "activities_unsequenced_idx" ON "activities" ("account_id", "position") WHERE "seq" IS NULL`,
    );
    await q.query(
      `CREATE INDEX "activities_account_time_idx" ON "activities" ("account_id", "transaction_time")`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "activities"`);
    await q.query(`DROP SEQUENCE "activities_seq"`);
  }
}
