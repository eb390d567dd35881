import { Cluster } from 'ioredis';
import { hashTagOf, parseClusterNodes } from 'src/core/redis/redis-connection';
import { itLocal, isRemote, TestContext, TestTenant, useTestContext } from '../support/app';
import { activeInvestor, fundingBody, linkBankAccount } from '../support/factories';
import { testRedis, testRedisTarget } from '../support/redis';
import { Receiver } from '../webhooks/support/receiver';
import { eventually } from '../webhooks/support/webhooks';
import { ApiProcess, startApiProcess } from './support/api-process';
import { probeSharedLimit } from './support/rate-probe';
import { clusterForFile, type FileCluster } from './support/redis-cluster';
import { contextOver } from './support/spread';

/**
 * Two API processes on a Redis Cluster of three masters (the suite's, REDIS_CLUSTER_NODES, or one
 * this file starts with scripts/redis-cluster.sh): a key's rate limit holds across both, the
 * clock's jobs and webhooks go through Bull queues on the cluster, and the keys spread over its
 * masters instead of sitting on one slot.
 */
describe('Redis Cluster with two API processes', () => {
  const ctx = useTestContext();
  beforeAll(() => startClusterAndApis(), 180_000);
  afterAll(() => stopApisAndCluster());

  itLocal('holds a key’s rate limit across both processes', async () => {
    // Each process alone would let through its own burst and refill: 2 × (5 + 1/s × t). Shared
    // through the cluster, the two together stay near one bucket's 5 + 1/s × t.
    const fresh = await ctx.createTenant();
    const { statuses, elapsedSeconds } = await probeSharedLimit([viaApi(0), viaApi(1)], fresh.test, {
      rounds: 16,
      perProcess: 1,
      pauseMs: 100,
    });
    const passed = statuses.filter((s) => s.status === 200).length;
    expect(passed).toBeGreaterThanOrEqual(5);
    // The slack is what a process may admit on a view at most one flush old (25 ms at 1/s: a
    // request or two), far below the 2 × burst of buckets kept apart.
    expect(passed).toBeLessThanOrEqual(5 + Math.ceil(elapsedSeconds) + 2);
    expect(statuses.filter((s) => s.api === 0 && s.status === 429).length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s.api === 1 && s.status === 429).length).toBeGreaterThan(0);
  });

  itLocal(
    'settles a deposit through the clock’s jobs and delivers its webhook via queues on the cluster',
    async () => {
      const first = viaApi(0).as(tenant.test);
      const investor = await activeInvestor(viaApi(0), tenant.test);
      const bank = await linkBankAccount(viaApi(1), tenant.test, investor.id);
      const receiver = await new Receiver().start();
      try {
        const webhook = await first.post('/v1/webhooks', {
          name: 'cluster',
          url: receiver.url,
          eventTypeNames: ['transfer.deposit.completed'],
        });
        expect(webhook.status).toBe(201);
        const deposit = await first.post(
          `/v1/wallet/accounts/${investor.account_id}/funding`,
          fundingBody(bank.id, '250.00'),
        );
        expect(deposit.status).toBe(201);
        const id = deposit.body.transaction_id as string;
        // Settled by the clock's job (run by one of the processes off the cluster's queue), and
        // its completed event delivered by a job of the webhook queue.
        const settled = await eventually(
          () => first.get(`/v1/wallet/accounts/${investor.account_id}/transactions/${id}`),
          (res) => res.body.status === 'settled',
          30_000,
        );
        expect(settled.body.amount).toBe('250.00');
        await receiver.waitUntil(
          (requests) =>
            requests.some(
              (r) => (JSON.parse(r.body) as { data: { transaction_id?: string } }).data.transaction_id === id,
            ),
          30_000,
        );
      } finally {
        await receiver.stop();
      }
      // Each queue's keys share its name's hash tag: one slot per queue (Bull's scripts touch
      // several keys of a queue at once), a different slot for each queue.
      const masters = await keysPerMaster(`${process.env.QUEUE_PREFIX}:*`);
      const tags = masters.flatMap((m) => m.keys.map(hashTagOf));
      expect(new Set(tags)).toEqual(new Set(['scheduled-jobs', 'webhook-deliveries']));
      for (const tag of ['scheduled-jobs', 'webhook-deliveries']) {
        expect(masters.filter((m) => m.keys.some((key) => hashTagOf(key) === tag))).toHaveLength(1);
      }
    },
    60_000,
  );

  itLocal('spreads the API keys’ rate-limit buckets over the masters', async () => {
    const tenants = await Promise.all(Array.from({ length: 6 }, () => ctx.createTenant()));
    const keyIds = tenants.flatMap((t) => [t.test, t.live]);
    await Promise.all(
      keyIds.map((creds, i) =>
        viaApi(i % 2)
          .as(creds)
          .get('/v1/webhooks/event-types'),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 400)); // past the relaxed flush (250 ms)
    const masters = await keysPerMaster('rl:*');
    const holding = masters.filter((m) => keyIds.some((k) => m.keys.includes(`rl:${k.id}`)));
    expect(holding.length).toBeGreaterThanOrEqual(2);
  });

  // What startClusterAndApis (the beforeAll) sets up for the cases above.
  let tenant: TestTenant;
  const apis: ApiProcess[] = [];
  let cluster: FileCluster | undefined;
  let nodes = '';

  /**
   * The cluster (the suite's, or one of this file's own), a tenant and the two API processes on
   * it; nothing remotely, where every case is skipped.
   */
  async function startClusterAndApis(): Promise<void> {
    if (isRemote) {
      return;
    }
    cluster = clusterForFile(OWN_CLUSTER_BASE_PORT);
    nodes = cluster.nodes;
    tenant = await ctx.createTenant();
    const env = {
      REDIS_CLUSTER_NODES: nodes,
      WORKER_IN_PROCESS: 'true',
      RATE_LIMIT_BURST: '5',
      RATE_LIMIT_PER_SECOND: '1',
      TRANSFER_PROCESSING_DELAY_SECONDS: '1',
      TRANSFER_SETTLEMENT_BUSINESS_DAYS: '0',
      SCHEDULER_INTERVAL_MS: '100',
      MIGRATE_ON_START: 'false',
      LOG_LEVEL: 'silent',
    };
    apis.push(...(await Promise.all([startApiProcess(env), startApiProcess(env)])));
  }

  /** The API processes, then this file's app, then the cluster they used. */
  async function stopApisAndCluster(): Promise<void> {
    await Promise.all(apis.map((api) => api.kill()));
    await ctx.close();
    cluster?.stop();
  }

  const viaApi = (i: number): TestContext => contextOver(ctx, [apis[i].baseUrl]);

  /** Keys matching `pattern` on each master of the cluster the processes use. */
  async function keysPerMaster(pattern: string): Promise<Array<{ master: string; keys: string[] }>> {
    const cluster = testRedis({ ...testRedisTarget(), clusterNodes: parseClusterNodes(nodes) }) as Cluster;
    try {
      await new Promise<void>((resolve) => cluster.once('ready', () => resolve()));
      return await Promise.all(
        cluster.nodes('master').map(async (node) => ({
          master: `${node.options.host}:${node.options.port}`,
          keys: await node.keys(pattern),
        })),
      );
    } finally {
      cluster.disconnect();
    }
  }
});

/** This file's own cluster's first port, when the suite is not already running on one. */
const OWN_CLUSTER_BASE_PORT = 7201;

// Jobs run in the two API processes (on the cluster), not in this file's in-process app: set as
// the file loads, before the beforeAll boots that app.
process.env.WORKER_IN_PROCESS = 'false';
