import type Queue from 'bull';
import { SCHEDULED_JOBS_QUEUE } from 'src/core/scheduler/job-queue.service';
import { LedgerAudit } from 'src/modules/ledger/ledger-audit.service';
import { WEBHOOK_DELIVERY_QUEUE } from 'src/modules/webhooks/delivery/delivery-job';
import { createTestContext, isRemote, itLocal, TestContext } from '../support/app';
import { testQueue } from '../support/redis';
import { dropQueueKeys, eventually } from '../webhooks/support/webhooks';
import { startFleet, withErrorLogs, type Fleet } from './support/fleet';
import { depositOutcomes, dueJobs, entitlementRows, eventsDelivered } from './support/outcomes';
import { eventsWithoutSuccess, fillMismatches, positionMismatches, tradingSummary } from './support/outcomes';
import { probeSharedLimit } from './support/rate-probe';
import { clusterForFile, type FileCluster } from './support/redis-cluster';
import { contextOver, KeyPacer } from './support/spread';
import { killWhileDelivering, stalledJobs } from './support/takeover';
import { deposit, depositors, openTrading, type Party } from './support/workload';
import { partyWithReceiver, tradeThroughTheWeek } from './support/workload';
import { NO_LEDGER_DISCREPANCIES } from '../support/ledger-audit';

/** The scenario is set out where it starts: startProcessesAndRunWorkload, below. */
describe('Many processes: three APIs and two workers, one worker killed -9 halfway', () => {
  let ctx: TestContext;
  beforeAll(() => startProcessesAndRunWorkload(), 420_000);
  afterAll(() => stopEverything());

  itLocal('starts every worker on the cluster, each writing one ready line', () => {
    expect(fleet!.workers.map((w) => w.ready)).toEqual(
      fleet!.workers.map((w) => ({
        msg: 'worker ready',
        pid: w.pid,
        redis: 'cluster',
        queue_prefix: process.env.QUEUE_PREFIX,
        job_lock_ms: JOB_LOCK_MS,
      })),
    );
    expect(new Set([...fleet!.apis, ...fleet!.workers].map((p) => p.pid)).size).toBe(5);
  });

  itLocal('runs every job due by its tenant’s clock exactly once', async () => {
    const rows = await dueJobs(ctx.dataSource, [deposits.tenant.tenantId, trading.tenant.tenantId]);
    // Done in one committed run, no failed one (attempts counts both); canceled ones never ran.
    expect(rows.filter((r) => r.state !== 'canceled' && !(r.state === 'done' && r.attempts === 1))).toEqual(
      [],
    );
    const done = new Set(rows.filter((r) => r.state === 'done').map((r) => r.kind));
    expect([...done]).toEqual(expect.arrayContaining(['transfer.process', 'transfer.settle']));
    expect(
      rows.filter((r) => r.kind === 'transfer.settle' && r.state === 'done').length,
    ).toBeGreaterThanOrEqual(DEPOSITS);
  });

  itLocal('settles each deposit once: one settlement journal and one completed event each', async () => {
    expect(transactions).toHaveLength(DEPOSITS);
    const outcomes = await depositOutcomes(ctx.dataSource, deposits.tenant.tenantId, transactions);
    expect(outcomes.filter((o) => o.settledJournals !== 1 || o.completedEvents !== 1)).toEqual([]);
  });

  itLocal('delivers every event to its tenant’s receiver, with a successful attempt on record', async () => {
    for (const party of [deposits, trading]) {
      const { events, missing, foreign } = await eventsDelivered(
        ctx.dataSource,
        party.tenant.tenantId,
        party.receiver,
      );
      expect(events.length).toBeGreaterThan(DEPOSITS);
      expect({ missing, foreign }).toEqual({ missing: [], foreign: [] });
      expect(await eventsWithoutSuccess(ctx.dataSource, party.tenant.tenantId, party.endpointId)).toEqual([]);
    }
  });

  itLocal('fills no order twice: executions add up to every order and every position', async () => {
    const tenantId = trading.tenant.tenantId;
    expect(await fillMismatches(ctx.dataSource, tenantId)).toEqual([]);
    expect(await positionMismatches(ctx.dataSource, tenantId)).toEqual([]);
    // What the week did: every buy, sell and resting buy filled; the day buys at half price expired.
    expect(await tradingSummary(ctx.dataSource, tenantId)).toEqual({
      orders: { filled: TRADERS * 8, canceled: TRADERS },
      executions: TRADERS * 8,
    });
  });

  itLocal('pays the dividend once to each holder at the record date', async () => {
    // Traders 0 and 3 bought 10 at market on Monday and sold 4 before the ex date: 6 × 0.25 each;
    // traders 2 and 5 got 10 by their resting buys: 10 × 0.25 each.
    const rows = await entitlementRows(ctx.dataSource, dividendId);
    expect(rows.map((r) => [r.eligible_quantity, r.net_cash, r.status]).sort()).toEqual([
      ['10.00000000', '2.50000000', 'applied'],
      ['10.00000000', '2.50000000', 'applied'],
      ['6.00000000', '1.50000000', 'applied'],
      ['6.00000000', '1.50000000', 'applied'],
    ]);
  });

  itLocal('keeps the ledger of both tenants balanced', async () => {
    const audit = ctx.app!.get(LedgerAudit);
    for (const party of [deposits, trading]) {
      expect(await audit.check(party.tenant.tenantId)).toEqual(NO_LEDGER_DISCREPANCIES);
    }
  });

  itLocal('has the other worker take up the killed worker’s jobs within JOB_LOCK_MS', async () => {
    const stalled = await stalledJobs(queues.map((q) => q.queue));
    // The kill came while both workers had deliveries in flight: the victim held at least one.
    expect(stalled.length).toBeGreaterThan(0);
    for (const { queue } of queues) {
      expect({ queue: queue.name, failed: await queue.getFailedCount() }).toEqual({
        queue: queue.name,
        failed: 0,
      });
    }
    for (const job of stalled) {
      expect(job.state).toBe('completed');
      // Started again after the kill, by the worker still running, within the bound.
      expect(job.processedOn! - killedAt).toBeGreaterThanOrEqual(0);
      expect(job.processedOn! - killedAt).toBeLessThanOrEqual(JOB_LOCK_MS);
      expect(job.finishedOn! - killedAt).toBeLessThanOrEqual(JOB_LOCK_MS + RUN_MARGIN_MS);
    }
  });

  itLocal('holds one key’s rate limit across the three API processes', async () => {
    const fresh = await ctx.createTenant();
    const each = fleet!.apis.map((api) => contextOver(ctx, [api.baseUrl]));
    const { statuses, elapsedSeconds } = await probeSharedLimit(each, fresh.test, {
      rounds: 30,
      perProcess: 3,
      pauseMs: 50,
    });
    const allowed = BURST + PER_SECOND * elapsedSeconds;
    // Each process was asked more than a bucket of its own would allow over the run: kept apart,
    // the three would let through about 3 × allowed.
    for (const api of [0, 1, 2]) {
      expect(statuses.filter((s) => s.api === api).length).toBeGreaterThan(allowed);
      expect(statuses.filter((s) => s.api === api && s.status === 429).length).toBeGreaterThan(0);
    }
    // Shared through the cluster they let through one bucket's worth; the slack is what each
    // process may admit on a view one flush (25 ms) old: a request or two each.
    const passed = statuses.filter((s) => s.status === 200).length;
    expect(passed).toBeGreaterThanOrEqual(BURST);
    expect(passed).toBeLessThanOrEqual(allowed + 2 * each.length);
  });

  // What the set-up started, and what the workload made that the cases read back.
  let cluster: FileCluster | undefined;
  let fleet: Fleet | undefined;
  let queues: Array<{ queue: Queue.Queue; close: () => Promise<void> }> = [];
  let deposits: Party;
  let trading: Party;
  let transactions: string[] = [];
  let dividendId: string;
  let killedAt: number;

  /**
   * Three API processes and two workers on one database and a Redis Cluster of three masters. A
   * workload goes round-robin over the API processes (each tenant's client pacing itself under the
   * rate limit): deposits settled by the clock's jobs in the workers, orders over twelve symbols
   * filled at placement, by price moves and by the workers' engine sweeps, test-clock moves through
   * a session close and a cash dividend, every event sent to a webhook receiver per tenant. Halfway,
   * while both workers are delivering, one is killed with kill -9; the other carries on alone.
   */
  async function startProcessesAndRunWorkload(): Promise<void> {
    if (isRemote) {
      ctx = await createTestContext();
      return;
    }
    cluster = clusterForFile(OWN_CLUSTER_BASE_PORT);
    // This file's app and its queue handles read the cluster the processes use.
    process.env.REDIS_CLUSTER_NODES = cluster.nodes;
    ctx = await createTestContext();
    fleet = await startFleet({ ...FLEET_ENV, REDIS_CLUSTER_NODES: cluster.nodes }, { apis: 3, workers: 2 });
    queues = [testQueue(SCHEDULED_JOBS_QUEUE), testQueue(WEBHOOK_DELIVERY_QUEUE)];
    const running = fleet;
    await runWorkload(running).catch(async (err: unknown) => {
      throw await withErrorLogs(err, running);
    });
  }

  /** Stops what the set-up started, in order: processes, queue handles, receivers, keys, the app, the cluster. */
  async function stopEverything(): Promise<void> {
    await fleet?.killAll();
    await Promise.all(queues.map((q) => q.close()));
    await Promise.all([deposits, trading].map((party) => party?.receiver.stop()));
    if (cluster) {
      await dropQueueKeys();
    }
    await ctx?.close();
    cluster?.stop();
    if (cluster?.own) {
      delete process.env.REDIS_CLUSTER_NODES;
    }
  }

  /**
   * The workload, round-robin over the API processes (`each`: every process alone, to see a clock
   * move reach all of them), each tenant's client pacing itself at 80 % of the rate limit; one
   * worker killed halfway; then the wait until every due job ended and every event was received.
   */
  async function runWorkload(running: Fleet): Promise<void> {
    const pacer = new KeyPacer(PER_SECOND * 0.8, BURST * 0.8);
    const each = running.apis.map((api) => contextOver(ctx, [api.baseUrl], pacer));
    const spread = contextOver(
      ctx,
      running.apis.map((api) => api.baseUrl),
      pacer,
    );
    [deposits, trading] = await Promise.all([partyWithReceiver(spread), partyWithReceiver(spread)]);
    const [people, traders] = await Promise.all([
      depositors(spread, deposits.tenant.test, DEPOSITS),
      openTrading(spread, each, trading.tenant.test, TRADERS),
    ]);
    const firstHalf = people.slice(0, DEPOSITS / 2);
    const kill = await killWhileDelivering(running.workers[0], [deposits.receiver, trading.receiver], {
      perProcessSlots: SLOTS_PER_ENDPOINT,
      holdMs: 3000,
      traffic: () => deposit(spread, deposits.tenant.test, firstHalf, '100.00'),
    });
    killedAt = kill.killedAt;
    const [before, after, dividend] = await Promise.all([
      kill.traffic,
      deposit(spread, deposits.tenant.test, people.slice(DEPOSITS / 2), '250.00'),
      tradeThroughTheWeek(spread, each, trading.tenant.test, traders),
    ]);
    transactions = [...before, ...after];
    dividendId = dividend;
    // Quiet: every job due by its tenant's clock has ended, every event reached its receiver.
    const tenants = [deposits.tenant.tenantId, trading.tenant.tenantId];
    await eventually(
      () => dueJobs(ctx.dataSource, tenants),
      (rows) => rows.every((r) => r.state !== 'scheduled' && r.state !== 'queued'),
      60_000,
    );
    await eventually(
      async () => [
        ...(await eventsDelivered(ctx.dataSource, deposits.tenant.tenantId, deposits.receiver)).missing,
        ...(await eventsDelivered(ctx.dataSource, trading.tenant.tenantId, trading.receiver)).missing,
      ],
      (missing) => missing.length === 0,
      90_000,
    );
  }
});

/** This file's own cluster's first port, when the suite is not already running on one. */
const OWN_CLUSTER_BASE_PORT = 7301;
/** Within this long a job of a dead worker is taken up by the other (the bound under test). */
const JOB_LOCK_MS = 8000;
/** Time for the job taken up to finish its own run (a POST, a transaction) on loaded cores. */
const RUN_MARGIN_MS = 1000;
const BURST = 20;
const PER_SECOND = 10;
/** Deliveries one worker sends to one endpoint at once: WEBHOOK_CONCURRENCY / 4 (EndpointSlots). */
const SLOTS_PER_ENDPOINT = 2;
const DEPOSITS = 12;
const TRADERS = 6;

// Queue consumers run in the two worker processes only: not in the API processes, not in this
// file's in-process app (which reads the database and the queues for the checks).
process.env.WORKER_IN_PROCESS = 'false';

const FLEET_ENV = {
  WORKER_IN_PROCESS: 'false',
  MIGRATE_ON_START: 'false',
  // Error lines only: a workload request answered 5xx fails with what the process logged for it.
  LOG_LEVEL: 'error',
  // Five processes and this file's app stay well under the server's max_connections (100), which
  // the files running beside this one share.
  DATABASE_POOL_MAX: '8',
  RATE_LIMIT_BURST: String(BURST),
  RATE_LIMIT_PER_SECOND: String(PER_SECOND),
  TRANSFER_PROCESSING_DELAY_SECONDS: '1',
  TRANSFER_SETTLEMENT_BUSINESS_DAYS: '0',
  SCHEDULER_INTERVAL_MS: '100',
  ENGINE_SWEEP_INTERVAL_MS: '300',
  JOB_LOCK_MS: String(JOB_LOCK_MS),
  WEBHOOK_CONCURRENCY: String(4 * SLOTS_PER_ENDPOINT),
  WEBHOOK_TIMEOUT_MS: '10000',
};
