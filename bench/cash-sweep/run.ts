import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { dropBenchDatabase, prepareBenchDatabase } from 'bench/lib/bench-database';
import { benchCoreModules } from 'bench/lib/in-process';
import { newUuid } from 'src/core/ids/ids';

/**
 * The ledger read of one day of cash sweep accrual: every enrolled account's settled cash at the
 * day's end. Candidate: `cashAtMany` (one grouped query, what the accrual job uses); baseline: one
 * `cashAt` query per account (what it did first). In-process against PostgreSQL, no server; rounds
 * alternate so noise hits both alike. Reports the median wall time of each and their ratio.
 */
const DB = 'svc_bench_cash_sweep';
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const DEPOSITS_PER_ACCOUNT = 3;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  const { tenantId } = await prepareBenchDatabase(DB);
  const core = await benchCoreModules({ jobs: false });
  const { LedgerModule } = await import('src/modules/ledger/ledger.module');
  const { LedgerService } = await import('src/modules/ledger/ledger.service');

  @Module({ imports: [...core, LedgerModule] })
  class BenchModule {}

  const app = await NestFactory.createApplicationContext(BenchModule, { logger: false });
  const ledger = app.get(LedgerService);
  const dataSource = app.get(DataSource);
  const scope = { tenantId, livemode: false };
  const accounts = Array.from({ length: ACCOUNTS }, () => newUuid());
  const start = new Date('2027-03-01T15:00:00Z');
  for (const [i, account] of accounts.entries()) {
    await dataSource.transaction(async (m) => {
      for (let d = 0; d < DEPOSITS_PER_ACCOUNT; d++) {
        await ledger.post(m, {
          ...scope,
          journalKey: `bench:${account}:${d}`,
          kind: 'bench.deposit',
          effectiveAt: new Date(start.getTime() + d * 86_400_000),
          entries: [
            {
              account: { kind: 'bank_clearing', currency: 'USD' },
              direction: 'debit',
              amount: `${100 + i}.00`,
            },
            {
              account: { kind: 'investor_cash', ownerId: account, currency: 'USD' },
              direction: 'credit',
              amount: `${100 + i}.00`,
            },
          ],
        });
      }
    });
  }
  const endOfDay = new Date('2027-03-02T04:59:59.999Z');
  const perAccount = async () => {
    const out = new Map<string, unknown>();
    for (const account of accounts) {
      out.set(account, await ledger.cashAt(scope, account, 'USD', endOfDay));
    }
    return out;
  };
  const oneQuery = () => ledger.cashAtMany(scope, accounts, 'USD', endOfDay);

  const sameAnswer =
    JSON.stringify([...(await perAccount()).values()]) === JSON.stringify([...(await oneQuery()).values()]);
  const baseline: number[] = [];
  const candidate: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    let t = performance.now();
    await perAccount();
    baseline.push(performance.now() - t);
    t = performance.now();
    await oneQuery();
    candidate.push(performance.now() - t);
  }
  const b = median(baseline);
  const c = median(candidate);
  console.log(
    JSON.stringify(
      {
        benchmark: 'cash-sweep day read',
        accounts: ACCOUNTS,
        rounds: ROUNDS,
        same_answer: sameAnswer,
        per_account_queries_ms: Number(b.toFixed(1)),
        one_query_ms: Number(c.toFixed(1)),
        speedup: Number((b / c).toFixed(1)),
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
