import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { dropBenchDatabase, prepareBenchDatabase } from 'bench/lib/bench-database';
import { benchCoreModules, trackPeakRss } from 'bench/lib/in-process';

/**
 * Corporate action processing over many holders: a cash dividend (half the investors withheld), a
 * 2-for-1 split, a symbol change and a stock merger (3 for 2 into a non-fractionable acquirer, with a
 * cash part) of one asset held by BENCH_ACCOUNTS accounts, each run as the clock-driven jobs do
 * (JobRunner.runOne, one transaction per batch, batches chained), in-process against PostgreSQL.
 * Reports applications per second for each and the process's peak resident memory.
 */
const DB = 'svc_bench_corporate_actions';
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 100_000);
const KIND = 'corporate_actions.process';

/** ACCOUNTS accounts (every other one a UK tax resident), each holding 1 to 500 shares of the asset. */
async function seed(dataSource: DataSource, tenantId: string, assetId: string): Promise<void> {
  await dataSource.query(
    `INSERT INTO investment_accounts (id, tenant_id, livemode, investor_id, account_number, status, enabled_assets,
       email_address, phone_number, address, identity, disclosures)
     SELECT gen_random_uuid(), $1, false, 'inv_bench_' || i, 'BENCH' || i, 'ACTIVE', '{us_equity}',
       'b' || i || '@example.com', '+14155550123', '{}'::jsonb,
       jsonb_build_object('country_of_tax_residence', CASE WHEN i % 2 = 0 THEN 'US' ELSE 'GB' END), '{}'::jsonb
     FROM generate_series(1, $2) AS i`,
    [tenantId, ACCOUNTS],
  );
  await dataSource.query(
    `INSERT INTO positions (id, tenant_id, livemode, account_id, asset_id, symbol, asset_class, currency, quantity,
       held_quantity, total_cost_basis, created_at, updated_at, last_transaction_at)
     SELECT 'pos_bench_' || a.account_number, $1, false, a.id, $2, 'AAPL', 'equity', 'USD', q.qty, 0, q.qty * 187.31,
       now(), now(), now()
     FROM investment_accounts a, LATERAL (SELECT 1 + (abs(hashtext(a.account_number)) % 500) AS qty) q
     WHERE a.tenant_id = $1`,
    [tenantId, assetId],
  );
}

async function main(): Promise<void> {
  const { tenantId } = await prepareBenchDatabase(DB);
  process.env.LOG_LEVEL = 'silent';
  const core = await benchCoreModules({ jobs: true });
  const { JobRunner } = await import('src/core/scheduler/job-runner.service');
  const { CorporateActionsCoreModule } =
    await import('src/modules/corporate-actions/corporate-actions-core.module');
  const { Announcements } = await import('src/modules/corporate-actions/announcements.service');

  @Module({ imports: [...core, CorporateActionsCoreModule] })
  class BenchModule {}

  const app = await NestFactory.createApplicationContext(BenchModule, { logger: false });
  const dataSource = app.get(DataSource);
  const [asset] = await dataSource.query(`SELECT id FROM assets WHERE symbol = 'AAPL' AND market = 'XNAS'`);
  await seed(dataSource, tenantId, asset.id as string);
  const scope = { tenantId, livemode: false };
  const rss = trackPeakRss(100);
  const runner = app.get(JobRunner);

  /** Runs the action's jobs (each batch schedules the next) until none is left. */
  async function runAction(body: Record<string, unknown>): Promise<{ seconds: number; jobs: number }> {
    const action = await dataSource.transaction((m) =>
      app.get(Announcements).announceForTenant(m, scope, body),
    );
    const started = performance.now();
    let jobs = 0;
    for (;;) {
      const [next] = await dataSource.query(
        `SELECT id, due_at FROM scheduled_jobs WHERE tenant_id = $1 AND kind = $2 AND state = 'scheduled'
            AND payload->>'actionId' = $3 ORDER BY due_at, created_at LIMIT 1`,
        [tenantId, KIND, action.id],
      );
      if (!next) {
        return { seconds: (performance.now() - started) / 1000, jobs };
      }
      await runner.runOne(next.id as string, new Date(next.due_at as Date));
      jobs += 1;
    }
  }

  const dividend = await runAction({
    type: 'cash_dividend',
    symbol: 'AAPL',
    cash_rate: '0.24',
    ex_date: '2027-03-02',
    payable_date: '2027-03-04',
  });
  const split = await runAction({
    type: 'stock_split',
    symbol: 'AAPL',
    old_rate: '1',
    new_rate: '2',
    ex_date: '2027-03-09',
  });
  const symbolChange = await runAction({
    type: 'symbol_change',
    symbol: 'AAPL',
    new_symbol: 'AAPLX',
    ex_date: '2027-03-16',
  });
  const stockMerger = await runAction({
    type: 'stock_merger',
    symbol: 'AAPL',
    new_symbol: 'AXAHY',
    old_rate: '2',
    new_rate: '3',
    cash_rate: '0.5',
    ex_date: '2027-03-23',
  });
  const peak = rss.stop();
  const [applied] = await dataSource.query(
    `SELECT count(*) FILTER (WHERE status = 'applied')::int AS applied, count(*)::int AS total
       FROM corporate_action_entitlements WHERE tenant_id = $1`,
    [tenantId],
  );
  // What the batches wrote, read back: a run that skipped journals or events must not pass for fast.
  const journals: Array<{ kind: string; count: number }> = await dataSource.query(
    `SELECT kind, count(*)::int AS count FROM ledger_journals WHERE tenant_id = $1 GROUP BY kind ORDER BY kind`,
    [tenantId],
  );
  const [events] = await dataSource.query(
    `SELECT count(*)::int AS applied FROM events WHERE tenant_id = $1 AND event = 'corporate_action.applied'`,
    [tenantId],
  );
  // The sandbox seed's own holders of the asset come on top of ACCOUNTS.
  const posted = new Map(journals.map((j) => [j.kind, j.count]));
  if (
    (posted.get('corporate_action.dividend') ?? 0) < ACCOUNTS ||
    (posted.get('corporate_action.withholding') ?? 0) < ACCOUNTS / 2 ||
    events.applied !== applied.applied
  ) {
    throw new Error(`Incomplete run: ${JSON.stringify({ journals, events })}`);
  }
  const rate = (r: { seconds: number }) => Math.round(ACCOUNTS / r.seconds);
  console.log(
    JSON.stringify(
      {
        benchmark: 'corporate actions',
        accounts: ACCOUNTS,
        entitlements_applied: applied.applied,
        entitlements_total: applied.total,
        cash_dividend: {
          seconds: Number(dividend.seconds.toFixed(1)),
          jobs: dividend.jobs,
          applications_per_second: rate(dividend),
        },
        ...Object.fromEntries(
          Object.entries({ stock_split: split, symbol_change: symbolChange, stock_merger: stockMerger }).map(
            ([name, r]) => [
              name,
              { seconds: Number(r.seconds.toFixed(1)), jobs: r.jobs, applications_per_second: rate(r) },
            ],
          ),
        ),
        journals: Object.fromEntries(posted),
        applied_events: events.applied,
        peak_rss_mb: Math.round(peak / 1024 / 1024),
      },
      null,
      2,
    ),
  );
  await app.close();
  await dropBenchDatabase(DB);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
