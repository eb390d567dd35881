import { itLocal, useTenant, useTestContext } from '../support/app';
import { madeBeforeAll } from '../support/made-before-all';
import { Receiver } from './support/receiver';
import { TcpProxy } from './support/tcp-proxy';
import { createEndpoint, dropQueueKeys, emit, eventually } from './support/webhooks';

describe('Outbox: Redis down', () => {
  const realRedisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/0';
  let proxy: TcpProxy;
  beforeAll(() => routeRedisThroughProxy());
  const ctx = useTestContext();
  const tenant = useTenant(ctx);
  const receiver = madeBeforeAll('The receiver', () => new Receiver().start());
  afterAll(async () => {
    proxy.restore();
    await receiver.stop();
    await ctx.close();
    await proxy.stop();
    await dropQueueKeys({ url: realRedisUrl, clusterNodes: [] });
  });

  itLocal(
    'events committed while Redis is down wait in the table and go out, once each, when it returns',
    async () => {
      await createEndpoint(ctx, tenant.test, { url: receiver.url, eventTypeNames: ['order.*'] });
      proxy.cut();
      const ids: string[] = [];
      for (const name of ['order.accepted', 'order.partially_filled', 'order.filled'] as const) {
        ids.push((await emit(ctx, { tenantId: tenant.tenantId, event: name })).id);
      }
      await new Promise((r) => setTimeout(r, 1500)); // several relay passes, all failing
      expect(await relayedAt(ids)).toEqual([null, null, null]);
      expect(receiver.requests).toEqual([]);

      proxy.restore();
      await receiver.waitUntil(() => ids.every((id) => receiver.forEvent(id).length > 0), 20_000);
      const stamps = await eventually(
        () => relayedAt(ids),
        (s) => s.every((d) => d !== null),
      );
      expect(stamps.every((d) => d instanceof Date)).toBe(true);
      await new Promise((r) => setTimeout(r, 500));
      expect(ids.map((id) => receiver.forEvent(id).length)).toEqual([1, 1, 1]);
    },
    40_000,
  );

  async function routeRedisThroughProxy(): Promise<void> {
    // The app reaches Redis through a proxy this file can cut.
    const redis = new URL(realRedisUrl);
    proxy = await new TcpProxy(redis.hostname, Number(redis.port || 6379)).start();
    redis.hostname = '127.0.0.1';
    redis.port = String(proxy.port);
    process.env.REDIS_URL = redis.toString();
    // A proxy in front of one node: a cluster would send the app on to its nodes' own addresses.
    delete process.env.REDIS_CLUSTER_NODES;
  }

  const relayedAt = async (ids: string[]): Promise<Array<Date | null>> =>
    (
      await ctx.dataSource.query(
        'SELECT "id", "relayed_at" FROM "events" WHERE "id" = ANY($1) ORDER BY "id"',
        [ids],
      )
    ).map((r: { relayed_at: Date | null }) => r.relayed_at);
});
