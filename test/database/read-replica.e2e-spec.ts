import { isRemote, itLocal, serverContext, TestContext, TestTenant } from '../support/app';
import { activeInvestor, fundingBody, linkBankAccount } from '../support/factories';
import { ApiProcess, startApiProcess } from '../foundation/support/api-process';
import { eventually } from '../webhooks/support/webhooks';
import { ReplicaServers, startReplicaServers } from './support/replica-servers';

/**
 * One API process reading from a streaming replica (DATABASE_REPLICA_URLS) beside one reading
 * only from the primary, on a primary and replica of this file's own that log every statement:
 * the read paths that may lag are served by the replica with the primary's answers, a caller
 * reads its own writes at once, and a replica behind the bound or gone sends reads back to the
 * primary without an error.
 */
describe('Read replica', () => {
  beforeAll(() => startServersAndApis(), 240_000);
  afterAll(async () => {
    await Promise.all([apis.withReplica?.kill(), apis.primaryOnly?.kill()]);
    servers?.stop();
  });

  itLocal('serves the read paths from the replica, answering as the primary does', async () => {
    await eventually(replicaStates, (states) => states[0] === 'in_use', 10_000);
    const fromPrimary: Record<string, unknown> = {};
    const primaryOnly = await servers.readsDuring('api_primary', async () => {
      for (const path of paths) {
        const res = await read(direct, path);
        expect([path, res.status]).toEqual([path, 200]);
        fromPrimary[path] = res.body;
      }
    });
    const withReplica = await servers.readsDuring('api_replica', async () => {
      for (const path of paths) {
        const res = await read(viaReplica, path);
        expect([path, res.status, res.body]).toEqual([path, 200, fromPrimary[path]]);
      }
    });
    // The same requests: on their own the primary ran every read; beside a replica, the replica
    // ran them and the primary almost none (what is left: reads inside the requests' transactions).
    expect(primaryOnly.primary).toBeGreaterThan(paths.length);
    expect(withReplica.replica).toBeGreaterThanOrEqual(primaryOnly.primary * 0.75);
    expect(withReplica.primary).toBeLessThanOrEqual(primaryOnly.primary * 0.25);
  });

  itLocal(
    'shows a change other work committed once its event is heard, though the replica has not replayed it',
    async () => {
      await servers.whileReplayPaused(async () => {
        // As a job does it (no request of the caller): the outbox's row and its notification.
        const id = `evt_replica_${Date.now()}`;
        const notice = JSON.stringify({
          id,
          tenant_id: tenant.tenantId,
          livemode: false,
          event: 'account.updated',
          created_at: new Date().toISOString(),
          endpoint_id: null,
        });
        await servers.sql(
          'primary',
          'svc',
          `INSERT INTO events (id, tenant_id, livemode, event, data, created_at, endpoint_id)
         VALUES ('${id}', '${tenant.tenantId}', false, 'account.updated', '{}', now(), NULL)
         RETURNING pg_notify('outbox_events', '${notice}')`,
        );
        // The notification reaches the API within milliseconds; the bound is seconds away.
        await eventually(
          () => read(viaReplica, '/v1/events?limit=100'),
          (res) => res.body.data.some((e: { id: string }) => e.id === id),
          MAX_LAG_MS / 2,
        );
        // The replica was still within the bound: only the tenant's change kept it off.
        expect(await replicaStates()).toEqual(['in_use']);
      });
    },
  );

  itLocal(
    'reads from the primary what a list wrote before reading (its activities’ sequencing)',
    async () => {
      // An activity committed without a request or an event of the caller's (so nothing keeps the
      // replica off), on the replica too; the feed gives it its id and sequence on the first read.
      const key = await depositActivity('replica-seq', '2049-03-01', '5');
      await eventually(
        () => servers.sql('replica', 'svc', `SELECT 1 FROM activities WHERE source_key = '${key}'`),
        (rows) => rows.length === 1,
        10_000,
      );
      await eventually(replicaStates, (states) => states[0] === 'in_use', 10_000);
      await servers.whileReplayPaused(async () => {
        const feed = await read(
          viaReplica,
          `/v1/trading/accounts/${accountId}/activities?activity_types=CSD`,
        );
        expect(feed.body.map((a: { net_amount: string }) => a.net_amount)).toContain('5.00');
        expect(await replicaStates()).toEqual(['in_use']);
      });
    },
  );

  itLocal(
    'builds a month’s statement from the replica',
    async () => {
      const common = { LOG_LEVEL: 'silent', SCHEDULER_INTERVAL_MS: '100', MIGRATE_ON_START: 'false' };
      const jobs = await startApiProcess({
        ...common,
        WORKER_IN_PROCESS: 'true',
        DATABASE_URL: servers.primaryUrl('svc', 'api_jobs'),
        DATABASE_REPLICA_URLS: servers.replicaUrl('svc', 'api_jobs'),
        DATABASE_REPLICA_MAX_LAG_MS: String(MAX_LAG_MS),
      });
      const bootedAt = Date.now();
      try {
        // October's activity, committed without an event (no change mark), sequenced, on the replica too.
        const key = await depositActivity('replica-statement', '2026-10-15', '7');
        // The feed's first read gives it its id (a write), before the statement reads it.
        expect((await read(direct, `/v1/trading/accounts/${accountId}/activities`)).status).toBe(200);
        await eventually(
          () =>
            servers.sql(
              'replica',
              'svc',
              `SELECT 1 FROM activities WHERE source_key = '${key}' AND seq IS NOT NULL`,
            ),
          (rows) => rows.length === 1,
          10_000,
        );
        // A process marks everything when it starts listening (what changed before may still be
        // replaying), so its replica reads wait for the replica's next catch-up after its start.
        await eventually(
          () => replicaLags(jobs.baseUrl),
          (lags) => lags.length === 1 && lags[0] >= 0 && Date.now() - lags[0] - 100 > bootedAt,
          10_000,
        );
        const statementReads = await servers.readsDuring('api_jobs', async () => {
          // October's statement job falls due (the tenant's clock follows real time); the process
          // with jobs runs it. Documents are listed through the primary-only process.
          await servers.sql(
            'primary',
            'svc',
            `INSERT INTO scheduled_jobs (id, tenant_id, livemode, kind, dedupe_key, due_at, payload)
           VALUES (gen_random_uuid(), '${tenant.tenantId}', false, 'statements.account_statement',
                   '${accountId}:2026-10', now(), '{"accountId": "${accountId}", "month": "2026-10"}')`,
          );
          await eventually(
            () => read(direct, `/v1/investors/${investorId}/documents?type=account_statement`),
            (res) =>
              res.body.data.some(
                (d: { file_name: string }) => d.file_name === 'account-statement-2026-10.pdf',
              ),
            30_000,
          );
        });
        // The statement's reads (activities, the ledger's cash, prices) went to the replica.
        expect(statementReads.replica).toBeGreaterThanOrEqual(3);
      } finally {
        await jobs.kill();
      }
    },
    120_000,
  );

  itLocal('lets a caller read its own write at once, though the replica has not replayed it', async () => {
    await servers.whileReplayPaused(async () => {
      const created = await activeInvestor(viaReplica, tenant.test);
      const listed = await read(viaReplica, '/v1/investors?limit=100');
      expect(listed.body.data.map((i: { id: string }) => i.id)).toContain(created.id);
      // The replica was still within the bound: only the caller's own write kept it off.
      expect(await replicaStates()).toEqual(['in_use']);
    });
  });

  itLocal('skips a replica further behind than the bound, and uses it again once caught up', async () => {
    await servers.whileReplayPaused(async () => {
      // Another caller's writes (a new tenant) move the primary on while the replica stands still.
      await direct.createTenant();
      await eventually(replicaStates, (states) => states[0] === 'lagging', MAX_LAG_MS * 3);
      const reads = await servers.readsDuring('api_replica', async () => {
        for (const path of paths.slice(0, 5)) {
          expect((await read(viaReplica, path)).status).toBe(200);
        }
      });
      expect(reads.replica).toBe(0);
      expect(reads.primary).toBeGreaterThan(0);
    });
    await eventually(replicaStates, (states) => states[0] === 'in_use', 10_000);
    const again = await servers.readsDuring('api_replica', async () => {
      expect((await read(viaReplica, '/v1/investors?limit=50')).status).toBe(200);
    });
    expect(again.replica).toBeGreaterThan(0);
  });

  itLocal('answers from the primary, without an error, while the replica is gone', async () => {
    servers.stopReplica();
    try {
      for (const path of paths) {
        const [gone, primary] = await Promise.all([read(viaReplica, path), read(direct, path)]);
        expect([path, gone.status, gone.body]).toEqual([path, 200, primary.body]);
      }
      await eventually(replicaStates, (states) => states[0] === 'unreachable', 5_000);
    } finally {
      servers.startReplica();
    }
    await eventually(replicaStates, (states) => states[0] === 'in_use', 15_000);
  });

  // What startServersAndApis (the beforeAll) sets up for the cases above.
  let servers: ReplicaServers;
  const apis: { primaryOnly?: ApiProcess; withReplica?: ApiProcess } = {};
  let direct: TestContext;
  let viaReplica: TestContext;
  let tenant: TestTenant;
  /** Routes that may lag (docs/decisions.md, Read replicas). */
  let paths: string[] = [];
  let accountId: string;
  let investorId: string;

  /**
   * This file's primary and replica, one API process reading from the replica and one from the
   * primary only, a tenant and its read paths (nothing remotely, where every case is skipped).
   */
  async function startServersAndApis(): Promise<void> {
    if (isRemote) {
      return;
    }
    servers = startReplicaServers();
    await servers.sql('primary', 'postgres', 'CREATE DATABASE svc');
    const common = { WORKER_IN_PROCESS: 'false', LOG_LEVEL: 'silent', RATE_LIMIT_BURST: '2000' };
    apis.withReplica = await startApiProcess({
      ...common,
      DATABASE_URL: servers.primaryUrl('svc', 'api_replica'),
      DATABASE_REPLICA_URLS: servers.replicaUrl('svc', 'api_replica'),
      DATABASE_REPLICA_MAX_LAG_MS: String(MAX_LAG_MS),
      MIGRATE_ON_START: 'true',
    });
    apis.primaryOnly = await startApiProcess({
      ...common,
      DATABASE_URL: servers.primaryUrl('svc', 'api_primary'),
      DATABASE_REPLICA_URLS: '',
      MIGRATE_ON_START: 'false',
    });
    direct = serverContext(apis.primaryOnly.baseUrl);
    viaReplica = serverContext(apis.withReplica.baseUrl);
    tenant = await direct.createTenant({ products: ['market_data'] });
    paths = await seededReadPaths();
  }

  /** An investor with a bank account, a deposit and a webhook; the read paths that show them. */
  async function seededReadPaths(): Promise<string[]> {
    const investor = await activeInvestor(direct, tenant.test);
    const bank = await linkBankAccount(direct, tenant.test, investor.id);
    const client = direct.as(tenant.test);
    await client.post(`/v1/wallet/accounts/${investor.account_id}/funding`, fundingBody(bank.id, '125.00'));
    await client.post('/v1/webhooks', {
      name: 'r',
      url: 'https://example.com/h',
      eventTypeNames: ['investor.created'],
    });
    const account = investor.account_id;
    accountId = account;
    investorId = investor.id;
    return [
      '/v1/investors?limit=50',
      '/v1/accounts?limit=50',
      `/v1/investors/${investor.id}/funding-sources`,
      `/v1/investors/${investor.id}/documents`,
      '/v1/events?limit=100',
      '/v1/webhooks',
      '/v1/corporate-actions',
      `/v1/investors/${investor.id}/deposits`,
      `/v1/investors/${investor.id}/withdrawals`,
      `/v1/investors/${investor.id}/orders`,
      `/v1/wallet/accounts/${account}/transactions`,
      `/v1/trading/accounts/${account}/orders`,
      `/v1/trading/accounts/${account}/positions`,
      `/v1/trading/accounts/${account}/activities`,
      '/v1/journals',
      '/v1/assets/search?q=apple',
      '/v1/assets/AAPL',
      '/v1/markets',
    ];
  }

  /**
   * A CSD activity of the seeded account dated `date`, committed on the primary without a request
   * or an event (as nothing of the caller's and no change mark): its source key.
   */
  async function depositActivity(prefix: string, date: string, amount: string): Promise<string> {
    const key = `${prefix}-${Date.now()}`;
    await servers.sql(
      'primary',
      'svc',
      `INSERT INTO activities (tenant_id, livemode, source_key, account_id, activity_type, status, date,
                               transaction_time, currency, net_amount, description)
       VALUES ('${tenant.tenantId}', false, '${key}', '${accountId}', 'CSD', 'executed', '${date}',
               '${date}T15:00:00Z', 'USD', ${amount}, 'Deposit')`,
    );
    return key;
  }

  const read = (ctx: TestContext, path: string) => ctx.as(tenant.test).get(path);
  /** Each replica's state and lag (ms behind its last catch-up; -1: none yet) as an API reports them. */
  const replicasOf = async (baseUrl: string) => {
    const res = await fetch(`${baseUrl}/health/ready`);
    const body = (await res.json()) as {
      info?: { database_replicas?: { replicas: Array<{ state: string; lag_ms: number }> } };
    };
    return body.info?.database_replicas?.replicas ?? [];
  };
  const replicaStates = async () => (await replicasOf(apis.withReplica!.baseUrl)).map((r) => r.state);
  const replicaLags = async (baseUrl: string) => (await replicasOf(baseUrl)).map((r) => r.lag_ms);
});

/** Bound on replica lag for this file's API (the default is 1,000 ms): room for a slow machine. */
const MAX_LAG_MS = 2000;
