import { Client } from 'pg';
import { assetSearchQuery } from 'src/modules/assets/asset-queries';
async function main() {
  const c = new Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/svc_bench_assets' });
  await c.connect();
  const { text, values } = assetSearchQuery({ q: process.argv[2], status: 'active', take: 51, overrideTenant: null });
  const plan = (await c.query(`EXPLAIN (ANALYZE, COSTS OFF, SUMMARY) ${text}`, values)).rows.map((r: any) => r['QUERY PLAN']);
  console.log(plan.filter((l: string) => !/Sort Method|Buffers|Heap Blocks|Memory Usage/.test(l)).join('\n'));
  await c.end();
}
void main();
