import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { engineTicks } from 'bench/orders/engine';
import { compareAll, LoadResult, runLoad } from 'bench/lib/load';
import { readQueryCount } from 'bench/lib/query-count';
import { recordTemplates } from 'bench/lib/same-work-server';
import { backendCpuSeconds, backendCpuUsed, cpuSeconds, startServer } from 'bench/lib/server-process';
import { dataSourceOptions } from 'src/core/database/data-source-options';
import { runMigrations } from 'src/core/database/migrate';
import { ApiKeyEntity } from 'src/core/tenancy/api-key.entity';
import { TenancyService } from 'src/core/tenancy/tenancy.service';
import { TenantEntity } from 'src/core/tenancy/tenant.entity';

/**
 * 1. Order placement (POST /v1/investors/{id}/orders with an Idempotency-Key: auth, rate limit,
 *    validation, account and asset reads, the quote, the cash hold in the ledger, the order row,
 *    `order.accepted`, an evaluation, the session-event job and the stored response in one
 *    transaction) against a bare node:http + pg single-insert transaction. Target: ratio >= 0.4.
 * 2. Engine time per price tick with 100,000 open orders across 1,000 symbols (100 per symbol):
 *    one tick locks and evaluates its symbol's open orders only. Target: < 100 ms.
 */
const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB = process.env.BENCH_ORDERS_DB ?? 'svc_bench_orders';
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 32);

async function prepareDatabase(): Promise<{ url: string; authorization: string; tenantId: string }> {
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
  await ds.query('CREATE TABLE bench_orders (id uuid PRIMARY KEY, path text NOT NULL, body jsonb NOT NULL)');
  const tenancy = new TenancyService(ds.getRepository(TenantEntity), ds.getRepository(ApiKeyEntity));
  const { tenant, test } = await tenancy.createTenant('Bench partner', [], false);
  await ds.destroy();
  return {
    url: url.toString(),
    tenantId: tenant.id,
    authorization: `Basic ${Buffer.from(`${test.key.public_key}:${test.secret}`).toString('base64')}`,
  };
}

/** ACTIVE investors with settled cash, made through the API. */
async function tradingAccounts(
  port: number,
  authorization: string,
): Promise<Array<{ path: string; accountId: string }>> {
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
  const accounts: Array<{ path: string; accountId: string }> = [];
  for (let i = 0; i < ACCOUNTS; i++) {
    const investor = await call('/v1/investors', {
      identity: {
        first_name: 'Bench',
        last_name: `Trader ${String.fromCharCode(65 + (i % 26))}`,
        date_of_birth: '1985-01-01',
        country_of_citizenship: 'US',
        country_of_birth: 'US',
        tax_id_type: 'USA_SSN',
        tax_id: '123-45-6789',
        country_of_tax_residence: 'US',
        funding_source: ['employment_income'],
      },
      contact: {
        email_address: `trader${i}@example.com`,
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
      account_holder_name: 'Bench Trader',
      account_number: '000123456789',
      routing_number: '110000000',
      currency: 'USD',
      country: 'US',
    });
    const deposit = await call(`/v1/wallet/accounts/${investor.account_id}/funding`, {
      amount: '1000000.00',
      funding_details: {
        funding_type: 'fiat',
        fiat_currency: 'USD',
        bank_account_id: bank.id,
        method: 'ach',
      },
    });
    await call(`/v1/test_helpers/wallet/transactions/${deposit.transaction_id}/settle`);
    accounts.push({ path: `/v1/investors/${investor.id}/orders`, accountId: investor.account_id });
  }
  return accounts;
}

/** A resting gtc limit buy: the whole placement path without a fill (the common case under load). */
const ORDER_BODY = JSON.stringify({
  symbol: 'AAPL',
  side: 'buy',
  type: 'limit',
  time_in_force: 'gtc',
  quantity: '1',
  limit_price: '1.00',
});

type Which = 'app' | 'bare' | 'same';

/** Per-server totals of the measured rounds: CPU seconds of the process and of its backends, statements. */
function tally() {
  const zero = () => ({ app: 0, bare: 0, same: 0 }) as Record<Which, number>;
  return { cpu: zero(), dbCpu: zero(), statements: zero() };
}

/** One POST with an Idempotency-Key; answers the response text (201 expected). */
async function post(port: number, path: string, authorization: string, key: string): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method: 'POST',
    headers: { authorization, 'idempotency-key': key, 'content-type': 'application/json' },
    body: ORDER_BODY,
  });
  const text = await res.text();
  if (res.status !== 201) {
    throw new Error(`${path}: ${res.status} ${text}`);
  }
  return text;
}

async function placement(url: string, authorization: string) {
  const total = Number(process.env.BENCH_REQUESTS ?? 2000);
  const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 32);
  const scratch = (name: string) => join(tmpdir(), `bench-orders-${process.pid}-${name}`);
  const countFile = (name: string) => scratch(`${name}.count`);
  const named = (name: string) => `${url}?application_name=bench_${name}`;
  // BENCH_SAME_WORK_TEMPLATES=<file> keeps the captured statements there for reading.
  const templates = process.env.BENCH_SAME_WORK_TEMPLATES ?? scratch('same-work.json');
  const app = await startServer('bench/orders/servers.ts', ['app'], {
    BENCH_QUERY_COUNT_FILE: countFile('app'),
    BENCH_CAPTURE_PORT_FILE: scratch('capture.port'),
    DATABASE_URL: named('app'),
    MIGRATE_ON_START: 'false',
    WORKER_IN_PROCESS: 'false',
    RATE_LIMIT_BURST: '10000000',
    RATE_LIMIT_PER_SECOND: '10000000',
    LOG_LEVEL: 'info',
    ...(process.env.BENCH_APP_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_APP_NODE_OPTIONS } : {}),
  });
  const bare = await startServer('bench/orders/servers.ts', ['bare'], {
    DATABASE_URL: named('bare'),
    BENCH_QUERY_COUNT_FILE: countFile('bare'),
  });
  const servers: Partial<Record<Which, typeof app>> = { app, bare };
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    const accounts = await tradingAccounts(app.port, authorization);
    const paths = accounts.map((a) => a.path);
    let totals = tally();
    const load = async (which: Which, requests: number): Promise<LoadResult> => {
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
        body: () => ORDER_BODY,
        total: requests,
        concurrency,
      });
      if (result.statuses[201] !== requests) {
        throw new Error(`${which}: not every order was placed: ${JSON.stringify(result.statuses)}`);
      }
      totals.cpu[which] += cpuSeconds(server.child.pid!) - before;
      totals.dbCpu[which] += backendCpuUsed(dbBefore, await backendCpuSeconds(admin, `bench_${which}`));
      totals.statements[which] += (await readQueryCount(countFile(which))) - sentBefore;
      return result;
    };
    const warmup = Number(process.env.BENCH_WARMUP ?? 500);
    await load('app', warmup);
    // The same-work baseline replays what the warm service sent for two placements of each account.
    const captured = await recordTemplates({
      controlPort: Number(readFileSync(scratch('capture.port'), 'utf8')),
      paths,
      send: (path, i) =>
        post(app.port, path, authorization, `capture-${i}-${randomBytes(6).toString('hex')}`),
      file: templates,
    });
    servers.same = await startServer('bench/orders/servers.ts', ['same-work'], {
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
    const us = (x: Record<Which, number>, w: Which) => Math.round((x[w] / requests) * 1e6);
    const ms = (x: number) => Number(x.toFixed(1));
    return {
      accounts,
      report: {
        placement_rps: Math.round(result.rate.app),
        bare_insert_rps: Math.round(result.rate.bare),
        ratio: Number((result.rate.app / result.rate.bare).toFixed(3)),
        target: 0.4,
        same_work_rps: Math.round(result.rate.same),
        same_work_ratio: Number((result.rate.app / result.rate.same).toFixed(3)),
        same_work_target: 0.6,
        placement_p99_ms: ms(result.p99ms.app),
        bare_p99_ms: ms(result.p99ms.bare),
        same_work_p99_ms: ms(result.p99ms.same),
        p99_ratio: Number((result.p99ms.bare / result.p99ms.app).toFixed(3)),
        p99_over_same_work: Number((result.p99ms.app / result.p99ms.same).toFixed(2)),
        p99_target: '<= 2 x same_work_p99_ms',
        app_cpu_us_per_request: us(totals.cpu, 'app'),
        bare_cpu_us_per_request: us(totals.cpu, 'bare'),
        same_work_cpu_us_per_request: us(totals.cpu, 'same'),
        app_db_cpu_us_per_request: us(totals.dbCpu, 'app'),
        bare_db_cpu_us_per_request: us(totals.dbCpu, 'bare'),
        same_work_db_cpu_us_per_request: us(totals.dbCpu, 'same'),
        app_statements_per_request: Number((totals.statements.app / requests).toFixed(2)),
        bare_statements_per_request: Number((totals.statements.bare / requests).toFixed(2)),
        same_work_statements_per_request: Number((totals.statements.same / requests).toFixed(2)),
        same_work_captured_statements: captured.statements,
        captured_outside_transaction: captured.outside,
        same_work_pairs_captured_again: captured.retried,
        concurrency,
        samples: result.samples.map((r) => [r.app, r.bare, r.same]),
        load_average: loadavg().map((x) => Number(x.toFixed(2))),
      },
    };
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

/** Accounts for the engine part alone (BENCH_PART=engine): made through a briefly started service. */
async function accountsOnly(url: string, authorization: string): Promise<string[]> {
  const app = await startServer('bench/orders/servers.ts', ['app'], {
    DATABASE_URL: url,
    MIGRATE_ON_START: 'false',
    WORKER_IN_PROCESS: 'false',
  });
  try {
    return (await tradingAccounts(app.port, authorization)).map((a) => a.accountId);
  } finally {
    await app.stop();
  }
}

/** BENCH_PART=placement or BENCH_PART=engine runs one part only; both by default. */
async function main(): Promise<void> {
  const part = process.env.BENCH_PART ?? 'all';
  if (!['all', 'placement', 'engine'].includes(part)) {
    throw new Error(`BENCH_PART must be placement, engine or all, not '${part}'`);
  }
  const { url, authorization, tenantId } = await prepareDatabase();
  let placed: Awaited<ReturnType<typeof placement>> | undefined;
  if (part !== 'engine') {
    placed = await placement(url, authorization);
  }
  const engine =
    part === 'placement'
      ? undefined
      : await engineTicks(
          url,
          tenantId,
          placed ? placed.accounts.map((a) => a.accountId) : await accountsOnly(url, authorization),
        );
  process.stdout.write(
    `${JSON.stringify({ bench: 'orders', placement: placed?.report, engine }, null, 2)}\n`,
  );
  process.exit(0);
}

main().catch((err: unknown) => {
  process.stderr.write(`${String(err)}\n`);
  process.exit(1);
});
