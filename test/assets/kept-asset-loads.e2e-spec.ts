import { Client } from 'pg';
import { isRemote, itLocal, useTenant, useTestContext } from '../support/app';
import { freezeClock } from '../support/clock';
import { ApiProcess, startApiProcess } from '../foundation/support/api-process';
import { contextOver } from '../foundation/support/spread';
import { eventually } from '../webhooks/support/webhooks';
import { MONDAY_OPEN, setPrice, trader } from '../trading/support/trading';

/**
 * Placements hold a pool connection for their transaction while they read the asset and the
 * tenant's test-mode overrides, which the API keeps in memory. A search loading the same tenant's
 * overrides through the pool must not be waited for by them: with every pool connection held by
 * placements, the search's load would never get one, and the placements would never end. The API
 * runs as a process of its own with a pool of two connections.
 */
describe('Kept asset reads: placements never wait for a search that waits for them', () => {
  const ctx = useTestContext();
  const tenant = useTenant(ctx);
  let api: ApiProcess | undefined;
  beforeAll(async () => (api = await apiOnTwoConnections()), 120_000);
  afterAll(() => api?.kill());

  itLocal('answers two placements and a search of one tenant on a pool of two connections', async () => {
    await freezeClock(ctx, tenant.test, MONDAY_OPEN);
    const t = await trader(ctx, tenant.test);
    await setPrice(ctx, tenant.test, 'AAPL', '10.00');
    const viaApi = contextOver(ctx, [api!.baseUrl]).as(tenant.test);
    const search = () => viaApi.get('/v1/assets/search?q=AAPL');
    const buy = {
      symbol: 'AAPL',
      side: 'buy',
      type: 'limit',
      time_in_force: 'gtc',
      quantity: '1',
      limit_price: '5',
    };
    // The API process keeps the search's rows, the tenant's overrides and the asset of the placements.
    await eventually(search, (res) => res.status === 200, 10_000);
    expect((await viaApi.post(`/v1/investors/${t.investor.id}/orders`, buy)).status).toBe(201);
    // From here on the key stays in the process's credential cache (5 s): no request needs a
    // connection to authenticate.
    expect((await search()).status).toBe(200);
    // A new override of the tenant: the process drops its kept overrides when it hears of it.
    await setPrice(ctx, tenant.test, 'MSFT', '20.00');
    await new Promise((resolve) => setTimeout(resolve, 500));

    const lock = new Client({ connectionString: process.env.DATABASE_URL });
    await lock.connect();
    try {
      // The account row held: both placements take a connection each and wait at their first read.
      await lock.query('BEGIN');
      await lock.query('SELECT 1 FROM investment_accounts WHERE id = $1 FOR UPDATE', [t.investor.account_id]);
      // (A request is sent when its answer is first asked for: Promise.resolve asks at once.)
      const placing = [1, 2].map(() =>
        Promise.resolve(viaApi.post(`/v1/investors/${t.investor.id}/orders`, buy)),
      );
      await eventually(
        () => waitingOnLocks(lock),
        (waiting) => waiting === 2,
        10_000,
      );
      // The search loads the tenant's overrides through the pool, where no connection is free.
      const searching = Promise.resolve(search());
      await new Promise((resolve) => setTimeout(resolve, 300));
      await lock.query('COMMIT');
      const answers = await withinSeconds(15, Promise.all([...placing, searching]));
      expect(answers.map((res) => res.status)).toEqual([201, 201, 200]);
    } finally {
      await lock.query('ROLLBACK').catch(() => undefined);
      await lock.end();
    }
  });
});

/** The API as a process of its own on a pool of two connections (nothing remotely). */
async function apiOnTwoConnections(): Promise<ApiProcess | undefined> {
  if (isRemote) {
    return undefined;
  }
  return startApiProcess({
    DATABASE_POOL_MAX: '2',
    MIGRATE_ON_START: 'false',
    WORKER_IN_PROCESS: 'false',
    AUTH_CACHE_TTL_MS: '5000',
    LOG_LEVEL: 'error',
  });
}

/** Sessions of this database waiting for a lock (the placements' first reads). */
async function waitingOnLocks(client: Client): Promise<number> {
  const { rows } = await client.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_stat_activity
      WHERE datname = current_database() AND wait_event_type = 'Lock'`,
  );
  return rows[0].n;
}

/** The work's answers, or a failure naming the stall when they take longer than `seconds`. */
function withinSeconds<T>(seconds: number, work: Promise<T>): Promise<T> {
  return Promise.race([
    work,
    new Promise<never>((_, reject) =>
      setTimeout(
        () => reject(new Error(`no answers within ${seconds} s: the requests wait on each other`)),
        seconds * 1000,
      ).unref(),
    ),
  ]);
}
