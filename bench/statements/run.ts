import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { dropBenchDatabase, prepareBenchDatabase } from 'bench/lib/bench-database';
import { benchCoreModules, trackPeakRss } from 'bench/lib/in-process';
import { instrumentStatementJobs } from 'bench/statements/cost';
import { insertAccounts, MONTH, seedMonths } from 'bench/statements/seed';

type Cost = Awaited<ReturnType<typeof instrumentStatementJobs>>;

/**
 * Monthly statements at scale: BENCH_ACCOUNTS accounts (default 10,000), each with a month of
 * activity (bench/statements/seed.ts: a deposit, three fills with commissions, a withdrawal with a
 * fee; two positions at the month's end), written through the ledger's and activities' services,
 * which schedule each account's statement job. Then every March statement job runs as the worker
 * runs it: JobRunner.runOne at the job's due time (lock, build, PDF, store, event, next month's
 * job, done), BENCH_CONCURRENCY at a time (default 8, the worker's concurrency), job ids read a
 * page at a time. Reports statements per second, this process's peak resident memory while the
 * jobs ran, statements sent to PostgreSQL per statement, where the time went, and the load average.
 */
const DB = process.env.BENCH_STATEMENTS_DB ?? 'svc_bench_statements';
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 10_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const PAGE = 1000;
const RUN_AT = new Date('2027-04-01T14:00:00Z');

async function context(): Promise<INestApplicationContext> {
  const core = await benchCoreModules({ jobs: true });
  const { StatementsCoreModule } = await import('src/modules/statements/statements-core.module');
  const { InvestmentAccountEntity } = await import('src/modules/accounts/entities/investment-account.entity');

  // Documents relate to accounts: the worker has the account entity from its transfer module.
  @Module({ imports: [...core, TypeOrmModule.forFeature([InvestmentAccountEntity]), StatementsCoreModule] })
  class BenchModule {}

  return NestFactory.createApplicationContext(BenchModule, { logger: ['error'], abortOnError: false });
}

/** Runs every scheduled March statement job, `CONCURRENCY` lanes taking ids from one page at a time. */
async function runStatementJobs(app: INestApplicationContext, tenantId: string): Promise<number> {
  const { JobRunner } = await import('src/core/scheduler/job-runner.service');
  const { STATEMENT_JOB } = await import('src/modules/statements/statement-jobs');
  const runner = app.get(JobRunner);
  const dataSource = app.get(DataSource);
  let ran = 0;
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const page: Array<{ id: string }> = await dataSource.query(
      `SELECT id FROM scheduled_jobs WHERE tenant_id = $1 AND kind = $2 AND state = 'scheduled'
          AND payload->>'month' = $3 AND id > $4 ORDER BY id LIMIT $5`,
      [tenantId, STATEMENT_JOB, MONTH, after, PAGE],
    );
    if (page.length === 0) {
      return ran;
    }
    let next = 0;
    const lane = async () => {
      while (next < page.length) {
        const id = page[next++].id;
        if ((await runner.runOne(id, RUN_AT)) === 'done') {
          ran++;
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, lane));
    after = page[page.length - 1].id;
  }
}

const round = (x: number, digits = 1) => Number(x.toFixed(digits));
const load = () => loadavg().map((x) => round(x, 2));

/** Seeds every account's month; the seconds it took. */
async function seed(app: INestApplicationContext, tenantId: string): Promise<number> {
  const { LedgerService } = await import('src/modules/ledger/ledger.service');
  const { ActivitiesService } = await import('src/modules/activities/activities.service');
  const dataSource = app.get(DataSource);
  const started = performance.now();
  await insertAccounts(dataSource, tenantId, ACCOUNTS);
  await seedMonths(
    dataSource,
    { ledger: app.get(LedgerService), activities: app.get(ActivitiesService) },
    { tenantId, livemode: false },
  );
  return (performance.now() - started) / 1000;
}

/** Runs the statement jobs and answers the figures of the run. */
async function measure(app: INestApplicationContext, tenantId: string, cost: Cost) {
  const loadBefore = load();
  const before = cost.queries();
  Object.keys(cost.times).forEach((step) => (cost.times[step] = 0));
  const rssAtStart = process.memoryUsage().rss;
  const rss = trackPeakRss(50);
  const cpu = process.cpuUsage();
  const started = performance.now();
  const statements = await runStatementJobs(app, tenantId);
  const seconds = (performance.now() - started) / 1000;
  const peak = rss.stop();
  const cpuUsed = process.cpuUsage(cpu);
  const after = cost.queries();
  const [docs] = await app
    .get(DataSource)
    .query(
      `SELECT count(*)::int AS count, avg(size)::int AS bytes FROM documents WHERE type = 'account_statement'`,
    );
  const perStatement = (x: number) => round(x / statements, 2);
  return {
    statements,
    documents: docs.count as number,
    seconds: round(seconds),
    statements_per_second: round(statements / seconds),
    rss_at_start_mb: Math.round(rssAtStart / 1024 / 1024),
    peak_rss_mb: Math.round(peak / 1024 / 1024),
    average_pdf_bytes: docs.bytes as number,
    process_cpu_ms_per_statement: perStatement((cpuUsed.user + cpuUsed.system) / 1000),
    queries_per_statement: perStatement(after.count - before.count),
    sql_wait_ms_per_statement: perStatement(after.ms - before.ms),
    ms_per_statement: Object.fromEntries(
      Object.entries(cost.times).map(([step, ms]) => [step, perStatement(ms)]),
    ),
    load_average_before: loadBefore,
    load_average_after: load(),
  };
}

async function main(): Promise<void> {
  const { tenantId } = await prepareBenchDatabase(DB);
  const storage = mkdtempSync(join(tmpdir(), 'bench-statements-'));
  process.env.STORAGE_DIR = storage;
  process.env.LOG_LEVEL = 'silent';
  const cost = await instrumentStatementJobs();
  const app = await context();
  const seedSeconds = await seed(app, tenantId);
  const figures = await measure(app, tenantId, cost);
  const header = { benchmark: 'monthly statements', accounts: ACCOUNTS, concurrency: CONCURRENCY };
  console.log(JSON.stringify({ ...header, seed_seconds: round(seedSeconds), ...figures }, null, 2));
  await app.close();
  rmSync(storage, { recursive: true, force: true });
  await dropBenchDatabase(DB);
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(1);
});
