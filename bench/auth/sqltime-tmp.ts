import { Client } from 'pg';
import { assetSearchQuery } from 'src/modules/assets/asset-queries';
const QUERIES = ['apple','AAPL','micro','bank','ms','b','tesla','energy','velmor','zenith','BTC','treasury','KQ','holdings inc'];
async function main() {
  const c = new Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/svc_bench_assets' });
  await c.connect();
  for (const q of QUERIES) {
    const { text, values } = assetSearchQuery({ q, status: 'active', take: 51, overrideTenant: null });
    await c.query(text, values);
    const t0 = process.hrtime.bigint();
    let r;
    for (let i = 0; i < 5; i++) r = await c.query(text, values);
    const plan = (await c.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${text}`, values)).rows[0]['QUERY PLAN'][0];
    console.log(q.padEnd(14), (Number(process.hrtime.bigint() - t0) / 5e6).toFixed(2), 'ms', plan['Execution Time'].toFixed(2), 'exec', r!.rows.length, r!.rows.slice(0, 3).map((x: any) => x.symbol + ':' + x.name).join(' | '));
  }
  await c.end();
}
void main();
