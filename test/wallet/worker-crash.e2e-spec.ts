import { join } from 'node:path';
import type Queue from 'bull';
import { LedgerAudit } from 'src/modules/ledger/ledger-audit.service';
import { SCHEDULED_JOBS_QUEUE } from 'src/core/scheduler/job-queue.service';
import { itLocal, useTenant, useTestContext } from '../support/app';
import { madeBeforeAll } from '../support/made-before-all';
import { testQueue } from '../support/redis';
import { startWorkerProcess, type WorkerProcess } from '../foundation/support/worker-process';
import { activeInvestor, balances, fundingBody, linkBankAccount } from './support/wallet';
import { NO_LEDGER_DISCREPANCIES } from '../support/ledger-audit';
import { eventually } from '../webhooks/support/webhooks';

configureApiWithoutWorker();

describe('A worker killed between processing and settled posts exactly once', () => {
  const ctx = useTestContext();
  const tenant = useTenant(ctx);
  const jobQueue = madeBeforeAll('The job queue', () => Promise.resolve(testQueue(SCHEDULED_JOBS_QUEUE)));
  const workers: WorkerProcess[] = [];
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.kill()));
    await jobQueue.close();
  });

  itLocal.each(['after_commit', 'before_commit'] as const)(
    'killed %s, restarted: settled once, one event, one journal',
    async (crash) => {
      const investor = await activeInvestor(ctx, tenant.test);
      const bank = await linkBankAccount(ctx, tenant.test, investor.id);
      const deposit = await client().post(
        `/v1/wallet/accounts/${investor.account_id}/funding`,
        fundingBody(bank.id, '100.00'),
      );
      expect(deposit.status).toBe(201);
      const id = deposit.body.transaction_id as string;

      const doomed = await startWorker(crash);
      workers.push(doomed);
      expect(await doomed.exited()).toBe('SIGKILL');
      const job = await settleJob(id);
      expect(await job.getState()).toBe('active'); // its worker died holding it
      expect(await outcome(investor.account_id, id)).toEqual(
        crash === 'after_commit'
          ? { status: 'settled', completedEvents: 1, settlementJournals: 1 }
          : { status: 'processing', completedEvents: 0, settlementJournals: 0 },
      );

      workers.push(await startWorker());
      await eventually(
        () => job.getState(),
        (state) => state === 'completed',
        WORKER_WAIT_MS,
      );
      expect(await outcome(investor.account_id, id)).toEqual({
        status: 'settled',
        completedEvents: 1,
        settlementJournals: 1,
      });
      expect(await balances(ctx, tenant.test, investor.account_id)).toMatchObject([
        { cash: '100.00', pending_deposits: '0.00' },
      ]);
      expect(await ctx.app!.get(LedgerAudit).check(tenant.tenantId)).toEqual(NO_LEDGER_DISCREPANCIES);
      await Promise.all(workers.map((w) => w.stop()));
    },
    90_000,
  );

  const client = () => ctx.as(tenant.test);

  /** What happened to one deposit: its status, its completed events, its settlement journals. */
  async function outcome(accountId: string, transactionId: string) {
    const txn = await client().get(`/v1/wallet/accounts/${accountId}/transactions/${transactionId}`);
    const events = await client().get('/v1/events?event=transfer.deposit.completed&limit=100');
    const [journals] = await ctx.dataSource.query(
      `SELECT count(*)::int AS n FROM ledger_journals WHERE tenant_id = $1 AND journal_key = $2`,
      [tenant.tenantId, `${transactionId}:settled`],
    );
    return {
      status: txn.body.status as string,
      completedEvents: (events.body.data as Array<{ data: { transaction_id: string } }>).filter(
        (e) => e.data.transaction_id === transactionId,
      ).length,
      settlementJournals: journals.n as number,
    };
  }

  /** The Bull job of the deposit's settlement step, once it exists. */
  async function settleJob(transactionId: string): Promise<Queue.Job> {
    const [row] = await eventually(
      () =>
        ctx.dataSource.query(
          `SELECT id FROM scheduled_jobs WHERE kind = 'transfer.settle' AND dedupe_key = $1`,
          [transactionId],
        ),
      (rows: unknown[]) => rows.length === 1,
      WORKER_WAIT_MS,
    );
    return eventually(
      () => jobQueue.queue.getJob((row as { id: string }).id),
      (job) => job !== null,
      WORKER_WAIT_MS,
    ) as Promise<Queue.Job>;
  }
});

const CRASHING_WORKER = join(__dirname, 'support', 'crashing-worker.ts');

/** The worker process with the crash hooks (dies by SIGKILL at `crash`), once it is ready. */
const startWorker = (crash?: 'after_commit' | 'before_commit'): Promise<WorkerProcess> =>
  startWorkerProcess(
    { LOG_LEVEL: 'silent', ...(crash ? { CRASH: crash } : {}) },
    { script: CRASHING_WORKER },
  );

/**
 * The settings of this file's API, read when its beforeAll boots it: the API only produces jobs;
 * the worker is a child process the tests kill and restart.
 */
function configureApiWithoutWorker(): void {
  process.env.WORKER_IN_PROCESS = 'false';
  process.env.TRANSFER_PROCESSING_DELAY_SECONDS = '1';
  process.env.TRANSFER_SETTLEMENT_BUSINESS_DAYS = '0';
  process.env.SCHEDULER_INTERVAL_MS = '100';
  // A run whose worker died is taken up again within 2 s.
  process.env.JOB_LOCK_MS = '2000';
}

/** How long a worker process (started under ts-node on busy cores) may take to run a job. */
const WORKER_WAIT_MS = 30_000;
