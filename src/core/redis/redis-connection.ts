import Redis, { Cluster, type RedisOptions } from 'ioredis';

/** A connection to one Redis node (REDIS_URL) or to a Redis Cluster (REDIS_CLUSTER_NODES). */
export type RedisConnection = Redis | Cluster;

/** Where Redis is: a cluster's seed nodes when REDIS_CLUSTER_NODES is set, else REDIS_URL. */
export interface RedisTarget {
  url: string;
  clusterNodes: Array<{ host: string; port: number }>;
}

/** Parses REDIS_CLUSTER_NODES (`host:port,host:port`); empty or unset means one node. */
export function parseClusterNodes(value: string | undefined): Array<{ host: string; port: number }> {
  return (value ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0)
    .map((part) => {
      const at = part.lastIndexOf(':');
      return { host: part.slice(0, at), port: Number(part.slice(at + 1)) };
    });
}

export function isClustered(target: RedisTarget): boolean {
  return target.clusterNodes.length > 0;
}

/**
 * Opens a connection to the target with these per-node options. In a cluster, commands follow
 * their key's slot to its master (MOVED and ASK redirections are followed by ioredis).
 */
export function connectRedis(target: RedisTarget, options: RedisOptions): RedisConnection {
  if (!isClustered(target)) {
    return new Redis(target.url, options);
  }
  return new Cluster(target.clusterNodes, {
    redisOptions: options,
    enableReadyCheck: options.enableReadyCheck ?? true,
    enableOfflineQueue: options.enableOfflineQueue ?? true,
    // A slot moved mid-run (resharding, a failover) is retried on the node that now holds it.
    maxRedirections: 16,
    retryDelayOnFailover: 100,
  });
}

/**
 * The part of a key Redis Cluster hashes to pick its slot: the text between the first `{` and
 * the next `}` when that is not empty, else the whole key (Redis Cluster specification).
 */
export function hashTagOf(key: string): string {
  const open = key.indexOf('{');
  if (open >= 0) {
    const close = key.indexOf('}', open + 1);
    if (close > open + 1) {
      return key.slice(open + 1, close);
    }
  }
  return key;
}

/**
 * Splits the keys of one multi-key script into runs Redis accepts: all of them at once on one
 * node; per hash tag in a cluster (keys of one tag share a slot, so a script may touch them
 * together). Returns the positions of the keys in each run, in the order given.
 */
export function keyRunsFor(keys: readonly string[], clustered: boolean): number[][] {
  if (!clustered) {
    return keys.length === 0 ? [] : [keys.map((_, i) => i)];
  }
  const runs = new Map<string, number[]>();
  keys.forEach((key, i) => {
    const tag = hashTagOf(key);
    const run = runs.get(tag);
    if (run) {
      run.push(i);
    } else {
      runs.set(tag, [i]);
    }
  });
  return [...runs.values()];
}
