import Queue from 'bull';
import { openBullConnection, queueKeyPrefix } from 'src/core/queue/queue-connections';
import {
  connectRedis,
  parseClusterNodes,
  type RedisConnection,
  type RedisTarget,
} from 'src/core/redis/redis-connection';

/**
 * The Redis this test process's apps use: the cluster of REDIS_CLUSTER_NODES when set (CI runs
 * the suite against a local three-master cluster, scripts/redis-cluster.sh), else REDIS_URL.
 */
export function testRedisTarget(url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/0'): RedisTarget {
  return { url, clusterNodes: parseClusterNodes(process.env.REDIS_CLUSTER_NODES) };
}

export function testRedis(target = testRedisTarget()): RedisConnection {
  return connectRedis(target, { maxRetriesPerRequest: 1 });
}

/** Unlinks every key matching `pattern` on each master (SCAN walks one node only). */
export async function unlinkKeysMatching(pattern: string, target = testRedisTarget()): Promise<void> {
  const redis = testRedis(target);
  try {
    const nodes = redis.isCluster ? (redis as import('ioredis').Cluster).nodes('master') : [redis];
    for (const node of nodes as Array<import('ioredis').Redis>) {
      let cursor = '0';
      do {
        const [next, keys] = await node.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
        cursor = next;
        // One key per command: in a cluster, keys of one node may still sit in different slots.
        await Promise.all(keys.map((key) => node.unlink(key)));
      } while (cursor !== '0');
    }
  } finally {
    redis.disconnect();
  }
}

/**
 * A Bull queue on the same keys as the app's queue of that name (QUEUE_PREFIX, with the queue's
 * hash tag in a cluster). `close` also closes the cluster connections Bull was handed.
 */
export function testQueue(name: string): { queue: Queue.Queue; close: () => Promise<void> } {
  const target = testRedisTarget();
  const prefix = process.env.QUEUE_PREFIX ?? 'svc';
  const clustered = target.clusterNodes.length > 0;
  if (!clustered) {
    const queue = new Queue(name, target.url, { prefix });
    return { queue, close: () => queue.close() };
  }
  const opened: RedisConnection[] = [];
  const queue = new Queue(name, {
    prefix: queueKeyPrefix(prefix, name, true),
    createClient: (type) => {
      const connection = openBullConnection(target, type);
      opened.push(connection);
      return connection as never;
    },
  });
  return {
    queue,
    close: async () => {
      await queue.close();
      opened.forEach((connection) => connection.disconnect());
    },
  };
}
