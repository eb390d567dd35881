import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An order's average price is the volume-weighted price of its executions to the precision of their
 * prices: `filled_notional` (Σ quantity × price) keeps every digit of its products (quantities have 8
 * decimals, prices 8 at most, so 16), where 8 used to cut a notional buy's 230.06 to 230.06000002, and
 * `price_decimals` keeps the most decimals any of the order's execution prices had. Existing orders
 * are recomputed from their executions.
 */
export class OrderFillFigures1764030000000 implements MigrationInterface {
  name = 'OrderFillFigures1764030000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "orders" ALTER COLUMN "filled_notional" TYPE numeric(38,16)`);
    await q.query(`ALTER TABLE "orders" ADD COLUMN "price_decimals" smallint NOT NULL DEFAULT 0`);
    await q.query(`
      UPDATE "orders" o SET "filled_notional" = e.value, "price_decimals" = e.decimals
        FROM (SELECT "order_id", sum("quantity" * "price") AS value, max(min_scale("price")) AS decimals
                FROM "executions" GROUP BY "order_id") e
       WHERE e."order_id" = o."id"`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "orders" DROP COLUMN "price_decimals"`);
    await q.query(`ALTER TABLE "orders" ALTER COLUMN "filled_notional" TYPE numeric(38,8)`);
  }
}
