import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { compareAll, runLoad } from 'bench/lib/load';
import { recordTemplates } from 'bench/lib/same-work-server';
import { readQueryCount } from 'bench/lib/query-count';
import { backendCpuSeconds, backendCpuUsed, cpuSeconds, startServer } from 'bench/lib/server-process';
import { dataSourceOptions } from 'src/core/database/data-source-options';
import { runMigrations } from 'src/core/database/migrate';
import { ApiKeyEntity } from 'src/core/tenancy/api-key.entity';
import { TenancyService } from 'src/core/tenancy/tenancy.service';
import { TenantEntity } from 'src/core/tenancy/tenant.entity';

/**
 * Deposit creation (POST /v1/wallet/accounts/{id}/funding with an Idempotency-Key: auth, rate limit,
 * validation, idempotency reservation, account and bank account checks, transfer row, ledger hold,
 * outbox event, scheduled processing step and stored response in one transaction) against a bare
 * node:http + pg server inserting each request in a single-insert transaction. Target: ratio >= 0.4.
 */
const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB = process.env.BENCH_TRANSFERS_DB ?? 'svc_bench_transfers';
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 64);

async function prepareDatabase(): Promise<{ url: string; authorization: string }> {
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${DB}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${DB}"`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${DB}`;
  const ds = await new DataSource({
    ...dataSourceOptions(url.toString()),
    entities: [TenantEntity, ApiKeyEntity],
  }).initialize();
  await runMigrations(ds);
  await ds.query(
    'CREATE TABLE bench_deposits (id uuid PRIMARY KEY, path text NOT NULL, body jsonb NOT NULL)',
  );
  const tenancy = new TenancyService(ds.getRepository(TenantEntity), ds.getRepository(ApiKeyEntity));
  const { test } = await tenancy.createTenant('Bench partner', [], false);
  await ds.destroy();
  return {
    url: url.toString(),
    authorization: `Basic ${Buffer.from(`${test.key.public_key}:${test.secret}`).toString('base64')}`,
  };
}

/** One POST with an Idempotency-Key; answers the response text (201 expected). */
async function post(
  port: number,
  path: string,
  authorization: string,
  key: string,
  body: string,
): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method: 'POST',
    headers: { authorization, 'idempotency-key': key, 'content-type': 'application/json' },
    body,
  });
  const text = await res.text();
  if (res.status !== 201) {
    throw new Error(`${path}: ${res.status} ${text}`);
  }
  return text;
}

/** ACTIVE investors with a linked bank account each, made through the API. */
async function fundableAccounts(
  port: number,
  authorization: string,
): Promise<Array<{ path: string; body: string }>> {
  const call = async (path: string, body?: object) => {
    const res = await fetch(`http://127.0.0.1:${port}${path}`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify(body ?? {}),
    });
    if (res.status >= 300) {
      throw new Error(`${path}: ${res.status} ${await res.text()}`);
    }
    return (await res.json()) as Record<string, string>;
  };
  const accounts: Array<{ path: string; body: string }> = [];
  for (let i = 0; i < ACCOUNTS; i++) {
    const investor = await call('/v1/investors', {
      identity: {
        first_name: 'Bench',
        last_name: `Investor ${String.fromCharCode(65 + (i % 26))}`,
        date_of_birth: '1985-01-01',
        country_of_citizenship: 'US',
        country_of_birth: 'US',
        tax_id_type: 'USA_SSN',
        tax_id: '123-45-6789',
        country_of_tax_residence: 'US',
        funding_source: ['employment_income'],
      },
      contact: {
        email_address: `bench${i}@example.com`,
        phone_number: '+14155550123',
        address: {
          street: ['1 Main St'],
          city: 'San Mateo',
          state: 'CA',
          postal_code: '94401',
          country: 'US',
        },
      },
      disclosures: {
        is_control_person: false,
        is_affiliated_exchange_or_finra: false,
        is_politically_exposed: false,
        immediate_family_exposed: false,
      },
    });
    await call(`/v1/test_helpers/investors/${investor.id}/kyc/approve`);
    const bank = await call(`/v1/investors/${investor.id}/funding-sources`, {
      type: 'bank_account',
      account_holder_name: 'Bench Investor',
      account_number: '000123456789',
      routing_number: '110000000',
      currency: 'USD',
      country: 'US',
    });
    accounts.push({
      path: `/v1/wallet/accounts/${investor.account_id}/funding`,
      body: JSON.stringify({
        amount: '25.00',
        funding_details: {
          funding_type: 'fiat',
          fiat_currency: 'USD',
          bank_account_id: bank.id,
          method: 'ach',
        },
        description: 'bench deposit',
      }),
    });
  }
  return accounts;
}

type Which = 'app' | 'bare' | 'same';

/** Per-server totals of the measured rounds (CPU seconds of the process and of its backends, statements). */
function tally() {
  const zero = () => ({ app: 0, bare: 0, same: 0 }) as Record<Which, number>;
  return {
    cpu: zero(),
    dbCpu: zero(),
    statements: zero(),
    roundCpu: { app: [], bare: [], same: [] } as Record<Which, number[]>,
  };
}

async function main(): Promise<void> {
  const total = Number(process.env.BENCH_REQUESTS ?? 3000);
  const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 32);
  const { url, authorization } = await prepareDatabase();
  const scratch = (name: string) => join(tmpdir(), `bench-transfers-${process.pid}-${name}`);
  const countFile = (name: string) => scratch(`${name}.count`);
  // Each server's PostgreSQL connections carry its name, so their backends' CPU can be read.
  const named = (name: string) => `${url}?application_name=bench_${name}`;
  // BENCH_SAME_WORK_TEMPLATES=<file> keeps the captured statements there for reading.
  const templates = process.env.BENCH_SAME_WORK_TEMPLATES ?? scratch('same-work.json');
  const app = await startServer('bench/transfers/servers.ts', ['app'], {
    DATABASE_URL: named('app'),
    BENCH_QUERY_COUNT_FILE: countFile('app'),
    BENCH_CAPTURE_PORT_FILE: scratch('capture.port'),
    MIGRATE_ON_START: 'false',
    // The API as deployed beside a worker: the relays and job consumers run elsewhere.
    WORKER_IN_PROCESS: 'false',
    RATE_LIMIT_BURST: '10000000',
    RATE_LIMIT_PER_SECOND: '10000000',
    LOG_LEVEL: 'info',
  });
  const bare = await startServer('bench/transfers/servers.ts', ['bare'], {
    DATABASE_URL: named('bare'),
    BENCH_QUERY_COUNT_FILE: countFile('bare'),
  });
  const servers: Partial<Record<Which, typeof app>> = { app, bare };
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    const accounts = await fundableAccounts(app.port, authorization);
    const paths = accounts.map((a) => a.path);
    const body = (i: number) => accounts[i % accounts.length].body;
    // Statements sent to PostgreSQL (BEGIN and COMMIT included), background work of the service
    // (request-log batches, lease renewals) counted with the requests. roundCpu: CPU per request of
    // each measured round (a falling series means the service was still warming up).
    let totals = tally();
    const load = async (which: Which, requests: number) => {
      const server = servers[which]!;
      const run = randomBytes(6).toString('hex');
      const sentBefore = await readQueryCount(countFile(which));
      const before = cpuSeconds(server.child.pid!);
      const dbBefore = await backendCpuSeconds(admin, `bench_${which}`);
      const result = await runLoad({
        port: server.port,
        path: paths,
        method: 'POST',
        headers: (i) => ({ authorization, 'idempotency-key': `bench-${run}-${i}` }),
        body,
        total: requests,
        concurrency,
      });
      if (result.statuses[201] !== requests) {
        throw new Error(`${which}: not every deposit was created: ${JSON.stringify(result.statuses)}`);
      }
      const used = cpuSeconds(server.child.pid!) - before;
      totals.cpu[which] += used;
      totals.roundCpu[which].push(Math.round((used / requests) * 1e6));
      totals.dbCpu[which] += backendCpuUsed(dbBefore, await backendCpuSeconds(admin, `bench_${which}`));
      totals.statements[which] += (await readQueryCount(countFile(which))) - sentBefore;
      return result;
    };
    const warmup = Number(process.env.BENCH_WARMUP ?? 1000);
    await load('app', warmup);
    // The same-work baseline replays what the warm service sent for two deposits of each account.
    const captured = await recordTemplates({
      controlPort: Number(readFileSync(scratch('capture.port'), 'utf8')),
      paths,
      send: (path, i) =>
        post(
          app.port,
          path,
          authorization,
          `capture-${i}-${randomBytes(6).toString('hex')}`,
          body(paths.indexOf(path)),
        ),
      file: templates,
    });
    servers.same = await startServer('bench/transfers/servers.ts', ['same-work'], {
      DATABASE_URL: named('same'),
      BENCH_QUERY_COUNT_FILE: countFile('same'),
      BENCH_SAME_WORK_FILE: templates,
    });
    await load('bare', warmup);
    await load('same', warmup);
    totals = tally();
    const result = await compareAll(Number(process.env.BENCH_ROUNDS ?? 5), {
      app: () => load('app', total),
      bare: () => load('bare', total),
      same: () => load('same', total),
    });
    const requests = result.samples.length * total;
    const perRequest = (x: Record<Which, number>) => (w: Which) => Math.round((x[w] / requests) * 1e6);
    const cpu = perRequest(totals.cpu);
    const dbCpu = perRequest(totals.dbCpu);
    const statements = (w: Which) => Number((totals.statements[w] / requests).toFixed(2));
    process.stdout.write(
      `${JSON.stringify(
        {
          bench: 'transfers',
          deposit_creation_rps: Math.round(result.rate.app),
          bare_insert_rps: Math.round(result.rate.bare),
          ratio: Number((result.rate.app / result.rate.bare).toFixed(3)),
          target: 0.4,
          same_work_rps: Math.round(result.rate.same),
          same_work_ratio: Number((result.rate.app / result.rate.same).toFixed(3)),
          same_work_target: 0.6,
          deposit_p99_ms: Number(result.p99ms.app.toFixed(1)),
          bare_p99_ms: Number(result.p99ms.bare.toFixed(1)),
          same_work_p99_ms: Number(result.p99ms.same.toFixed(1)),
          app_cpu_us_per_request: cpu('app'),
          bare_cpu_us_per_request: cpu('bare'),
          same_work_cpu_us_per_request: cpu('same'),
          cpu_ratio: Number((totals.cpu.bare / totals.cpu.app).toFixed(3)),
          app_cpu_us_per_request_by_round: totals.roundCpu.app,
          bare_cpu_us_per_request_by_round: totals.roundCpu.bare,
          same_work_cpu_us_per_request_by_round: totals.roundCpu.same,
          app_db_cpu_us_per_request: dbCpu('app'),
          bare_db_cpu_us_per_request: dbCpu('bare'),
          same_work_db_cpu_us_per_request: dbCpu('same'),
          app_statements_per_request: statements('app'),
          bare_statements_per_request: statements('bare'),
          same_work_statements_per_request: statements('same'),
          same_work_captured_statements: captured.statements,
          captured_outside_transaction: captured.outside,
          same_work_pairs_captured_again: captured.retried,
          accounts: accounts.length,
          concurrency,
          samples: result.samples.map((r) => [r.app, r.bare, r.same]),
          load_average: loadavg().map((x) => Number(x.toFixed(2))),
        },
        null,
        2,
      )}\n`,
    );
  } finally {
    await admin.end();
    for (const server of Object.values(servers)) {
      await server.stop();
    }
    for (const name of ['app.count', 'bare.count', 'same.count', 'capture.port', 'same-work.json']) {
      rmSync(scratch(name), { force: true });
    }
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${String(err)}\n`);
  process.exit(1);
});
