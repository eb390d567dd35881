import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { Client } from 'pg';
import { BENCH_ADMIN_URL, prepareBenchDatabase } from 'bench/lib/bench-database';
import { startService } from 'bench/lib/server-process';
import { depositBody, FundedInvestor, fundedInvestors, RESTING_BUY } from 'bench/lib/funded-investors';
import { applicationName, BenchProcess, idleSpan, measureRound, RoundFigures } from 'bench/scale/measure';

/**
 * Deposits (POST /v1/wallet/accounts/{id}/funding with an Idempotency-Key) and order placements (a
 * resting limit buy) per second with ONE and with TWO API processes (WORKER_IN_PROCESS=false, each
 * on its own port, same database and Redis) beside one worker process, the requests spread
 * round-robin over the API processes. Per configuration: requests/s, p50/p99, CPU per request of
 * each API process, of the worker and of each one's PostgreSQL backends, and how busy the machine
 * was, so a reader sees what limits throughput. Rounds alternate the configurations.
 */
const DB = process.env.BENCH_SCALE_DB ?? 'svc_bench_scale';
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 32);
const TOTAL = Number(process.env.BENCH_REQUESTS ?? 1500);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 1000);
/** Seconds of no load measured before and after the rounds (the processes' timers alone). */
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 5);

/** The processes of the bench: the worker, then two API processes. */
const PROCESSES = ['worker', 'api1', 'api2'];
/** The file a process writes its statement count to (bench/lib/query-count.ts). */
const countFile = (name: string) => join(tmpdir(), `bench-scale-${process.pid}-${name}.count`);

type Kind = 'deposits' | 'placements';
type Started = Awaited<ReturnType<typeof startService>>;

async function startProcesses(url: string): Promise<{ all: BenchProcess[]; started: Started[] }> {
  const env = (name: string) => ({
    DATABASE_URL: `${url}?application_name=${applicationName(name)}`,
    BENCH_QUERY_COUNT_FILE: countFile(name),
    MIGRATE_ON_START: 'false',
    WORKER_IN_PROCESS: 'false',
    RATE_LIMIT_BURST: '10000000',
    RATE_LIMIT_PER_SECOND: '10000000',
    LOG_LEVEL: 'info',
  });
  const started: Started[] = [];
  const all: BenchProcess[] = [];
  for (const name of PROCESSES) {
    const server = await startService(
      'bench/scale/servers.ts',
      [name === 'worker' ? 'worker' : 'api'],
      env(name),
    );
    started.push(server);
    all.push({ name, port: server.port, pid: server.child.pid!, countFile: countFile(name) });
  }
  return { all, started };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const usPer = (seconds: number, requests: number) => Math.round((seconds / requests) * 1e6);

/** The figures of one configuration over its rounds: medians of rates and latencies, CPU summed. */
function summarise(rounds: RoundFigures[]) {
  const requests = rounds.reduce((n, r) => n + r.load.requests, 0);
  const names = Object.keys(rounds[0].cpu);
  const per = (pick: (r: RoundFigures) => Record<string, number>) =>
    Object.fromEntries(
      names.map((n) => [
        n,
        usPer(
          rounds.reduce((s, r) => s + pick(r)[n], 0),
          requests,
        ),
      ]),
    );
  const cpu = {
    ...per((r) => r.cpu),
    load_generator: usPer(
      rounds.reduce((s, r) => s + r.loadGeneratorCpu, 0),
      requests,
    ),
  };
  const dbCpu = per((r) => r.dbCpu);
  const statements = Object.fromEntries(
    names.map((n) => [n, Number((rounds.reduce((s, r) => s + r.statements[n], 0) / requests).toFixed(2))]),
  );
  const sum = (o: Record<string, number>) => Object.values(o).reduce((a, b) => a + b, 0);
  return {
    requests_per_second: Math.round(median(rounds.map((r) => r.load.perSecond))),
    requests_per_second_by_round: rounds.map((r) => Math.round(r.load.perSecond)),
    p50_ms: Number(median(rounds.map((r) => r.load.p50ms)).toFixed(1)),
    p99_ms: Number(median(rounds.map((r) => r.load.p99ms)).toFixed(1)),
    cpu_us_per_request: cpu,
    db_cpu_us_per_request: dbCpu,
    total_cpu_us_per_request: sum(cpu) + sum(dbCpu),
    statements_per_request: statements,
    redis_server_cpu_us_per_request: usPer(
      rounds.reduce((s, r) => s + r.redisCpu, 0),
      requests,
    ),
    machine_busy_while_loaded: Number(median(rounds.map((r) => r.machineBusy)).toFixed(2)),
    worker_catch_up_s: Number(median(rounds.map((r) => r.workerCatchUpSeconds)).toFixed(1)),
    load_average_by_round: rounds.map((r) => Number(r.loadAverage.toFixed(2))),
  };
}

type Round = (kind: Kind, processes: number, total: number) => Promise<RoundFigures>;

/**
 * BENCH_ROUNDS rounds of each kind with one and with two API processes, the order of the two
 * alternating from round to round.
 */
async function rounds(round: Round): Promise<Record<string, RoundFigures[]>> {
  const figures: Record<string, RoundFigures[]> = {};
  for (let r = 0; r < ROUNDS; r++) {
    for (const kind of ['deposits', 'placements'] as Kind[]) {
      for (const processes of r % 2 === 0 ? [1, 2] : [2, 1]) {
        const key = `${kind}_${processes}_api`;
        (figures[key] ??= []).push(await round(kind, processes, TOTAL));
        process.stderr.write(`round ${r + 1} ${key}: ${Math.round(figures[key].at(-1)!.load.perSecond)}/s\n`);
      }
    }
  }
  return figures;
}

/** The paths and bodies of each kind of request, over the bench's investors. */
function requestsOf(
  investors: FundedInvestor[],
): Record<Kind, { path: string[]; body: (i: number) => string }> {
  return {
    deposits: {
      path: investors.map((x) => `/v1/wallet/accounts/${x.accountId}/funding`),
      body: (i) => JSON.stringify(depositBody(investors[i % investors.length].bankAccountId)),
    },
    placements: {
      path: investors.map((x) => `/v1/investors/${x.investorId}/orders`),
      body: () => RESTING_BUY,
    },
  };
}

async function main(): Promise<void> {
  const { url, authorization } = await prepareBenchDatabase(DB);
  const loadBefore = loadavg().map((x) => Number(x.toFixed(2)));
  const { all, started } = await startProcesses(url);
  const admin = new Client({ connectionString: BENCH_ADMIN_URL });
  await admin.connect();
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/0');
  try {
    const api = all.filter((p) => p.name !== 'worker');
    const investors = await fundedInvestors(api[0].port, authorization, ACCOUNTS);
    const requests = requestsOf(investors);
    const round: Round = (kind, processes, total) => {
      const run = randomBytes(6).toString('hex');
      return measureRound(admin, redis, all, api.slice(0, processes), {
        ...requests[kind],
        method: 'POST',
        headers: (i) => ({ authorization, 'idempotency-key': `scale-${run}-${i}` }),
        total,
        concurrency: CONCURRENCY,
      });
    };
    // Warms both API processes (and the worker) up: WARMUP requests each, of each kind.
    await round('deposits', 2, WARMUP * 2);
    await round('placements', 2, WARMUP * 2);
    const idleBefore = await idleSpan(admin, redis, all, IDLE_SECONDS);
    const figures = await rounds(round);
    const idleAfter = await idleSpan(admin, redis, all, IDLE_SECONDS);
    const configurations = Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, summarise(v)]));
    const result = {
      bench: 'scale',
      requests_per_round: TOTAL,
      concurrency: CONCURRENCY,
      rounds: ROUNDS,
      accounts: investors.length,
      cpus: cpus().length,
      configurations,
      idle_before_rounds: idleBefore,
      idle_after_rounds: idleAfter,
      load_average_before: loadBefore,
      load_average_after: loadavg().map((x) => Number(x.toFixed(2))),
    };
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n${JSON.stringify(result)}\n`);
  } finally {
    await admin.end();
    redis.disconnect();
    for (const server of started.reverse()) {
      await server.stop();
    }
    for (const name of PROCESSES) {
      rmSync(countFile(name), { force: true });
    }
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${String(err)}\n`);
  process.exit(1);
});
