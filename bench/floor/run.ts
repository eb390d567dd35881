import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { runLoad } from 'bench/lib/load';
import { readQueryCount } from 'bench/lib/query-count';
import { backendCpuSeconds, backendCpuUsed, cpuSeconds, startServer } from 'bench/lib/server-process';

/**
 * The floor of the prescribed stack: how fast the bare server's single-insert transaction runs when
 * the same insert sits behind a NestJS (Express) route with a class-validator body (`nest`), and
 * behind a TypeORM transaction too (`nest-typeorm`). Rates and CPU per request of each beside the
 * bare node:http + pg server, in alternating rounds. No target: it shows what part of
 * bench/transfers' ratio the framework alone takes before the service does any work.
 */
const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB = process.env.BENCH_FLOOR_DB ?? 'svc_bench_floor';
const SERVERS = ['bare', 'nest', 'nest-typeorm'] as const;

async function main(): Promise<void> {
  const total = Number(process.env.BENCH_REQUESTS ?? 3000);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 32);
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${DB}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${DB}"`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${DB}`;
  const db = new Client({ connectionString: url.toString() });
  await db.connect();
  await db.query(
    'CREATE TABLE bench_deposits (id uuid PRIMARY KEY, path text NOT NULL, body jsonb NOT NULL)',
  );
  await db.end();
  const countFile = (name: string) => join(tmpdir(), `bench-floor-${process.pid}-${name}.count`);
  const servers = [];
  for (const name of SERVERS) {
    servers.push({
      name,
      server: await startServer('bench/floor/servers.ts', [name], {
        DATABASE_URL: `${url.toString()}?application_name=floor_${name}`,
        BENCH_QUERY_COUNT_FILE: countFile(name),
      }),
      rates: [] as number[],
      cpu: 0,
      dbCpu: 0,
      statements: 0,
      requests: 0,
    });
  }
  const body = JSON.stringify({
    amount: '25.00',
    funding_details: { funding_type: 'fiat', fiat_currency: 'USD', bank_account_id: 'fs_123', method: 'ach' },
    description: 'bench deposit',
  });
  try {
    for (let round = -1; round < rounds; round++) {
      for (const s of servers) {
        const pid = s.server.child.pid!;
        const sentBefore = await readQueryCount(countFile(s.name));
        const cpuBefore = cpuSeconds(pid);
        const dbBefore = await backendCpuSeconds(admin, `floor_${s.name}`);
        const run = randomBytes(4).toString('hex');
        const result = await runLoad({
          port: s.server.port,
          path: '/v1/wallet/accounts/acc_1/funding',
          method: 'POST',
          headers: (i) => ({ 'content-type': 'application/json', 'idempotency-key': `floor-${run}-${i}` }),
          body: () => body,
          total,
          concurrency,
        });
        if (result.statuses[201] !== total) {
          throw new Error(`${s.name}: ${JSON.stringify(result.statuses)}`);
        }
        if (round < 0) {
          continue; // warm-up
        }
        s.rates.push(result.perSecond);
        s.cpu += cpuSeconds(pid) - cpuBefore;
        s.dbCpu += backendCpuUsed(dbBefore, await backendCpuSeconds(admin, `floor_${s.name}`));
        s.statements += (await readQueryCount(countFile(s.name))) - sentBefore;
        s.requests += total;
      }
    }
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
    const bare = median(servers[0].rates);
    const report = Object.fromEntries(
      servers.map((s) => [
        s.name,
        {
          rps: Math.round(median(s.rates)),
          ratio_to_bare: Number((median(s.rates) / bare).toFixed(3)),
          cpu_us_per_request: Math.round((s.cpu / s.requests) * 1e6),
          db_cpu_us_per_request: Math.round((s.dbCpu / s.requests) * 1e6),
          statements_per_request: Number((s.statements / s.requests).toFixed(2)),
          samples: s.rates.map(Math.round),
        },
      ]),
    );
    process.stdout.write(
      `${JSON.stringify({ bench: 'floor', concurrency, requests: total, ...report }, null, 2)}\n`,
    );
  } finally {
    await admin.end();
    for (const s of servers) {
      await s.server.stop();
      rmSync(countFile(s.name), { force: true });
    }
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${String(err)}\n`);
  process.exit(1);
});
