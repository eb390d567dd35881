import { Client } from 'pg';
import { OPEN, SELECT, TICK_UNCHANGED } from 'src/modules/trading/order-sql';

/**
 * EXPLAIN (ANALYZE, BUFFERS) of the engine tick's read of a symbol's open orders (the statement of
 * OrdersRepository.openOfAsset with a quote), on a database bench/orders' engine part left behind:
 * `npx ts-node --transpile-only -r tsconfig-paths/register bench/orders/explain-tick.ts <database>`.
 * Takes the asset of the first seeded order and a quote at its reference price.
 */
async function main(): Promise<void> {
  const url = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  url.pathname = `/${process.argv[2] ?? 'svc_bench_orders'}`;
  const client = new Client({ connectionString: url.toString() });
  await client.connect();
  try {
    const [order] = (
      await client.query(
        `SELECT o.tenant_id, o.asset_id, a.reference_price::text AS price FROM orders o JOIN assets a ON a.id = o.asset_id
          WHERE o.id LIKE 'ord_bench_%' AND a.market = 'XNYS' LIMIT 1`,
      )
    ).rows as Array<{ tenant_id: string; asset_id: string; price: string }>;
    const sql = `EXPLAIN (ANALYZE, BUFFERS) SELECT ${SELECT} FROM orders
      WHERE tenant_id = $1 AND livemode = $2 AND asset_id = $3 AND ${OPEN} AND NOT ${TICK_UNCHANGED}
      ORDER BY created_at, seq`;
    const params = [order.tenant_id, false, order.asset_id, 'regular', order.price, order.price, order.price];
    for (let i = 0; i < 3; i++) {
      const { rows } = await client.query(sql, params);
      process.stdout.write(`${rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n')}\n\n`);
    }
  } finally {
    await client.end();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${String(err)}\n`);
  process.exit(1);
});
