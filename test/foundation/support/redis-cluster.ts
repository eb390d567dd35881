import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const SCRIPT = join(__dirname, '..', '..', '..', 'scripts', 'redis-cluster.sh');

export interface FileCluster {
  /** REDIS_CLUSTER_NODES of the cluster (`host:port,...`). */
  nodes: string;
  /** Whether this file started it (and stop() stops it). */
  own: boolean;
  stop(): void;
}

/**
 * The Redis Cluster a file's processes use: the suite's (REDIS_CLUSTER_NODES) when it runs on one,
 * else a three-master cluster of the file's own on ports basePort..basePort + 2, started with
 * scripts/redis-cluster.sh (each file that may start one takes ports of its own).
 */
export function clusterForFile(basePort: number): FileCluster {
  const suite = process.env.REDIS_CLUSTER_NODES;
  if (suite) {
    return { nodes: suite, own: false, stop: () => undefined };
  }
  const env = { ...process.env, REDIS_CLUSTER_BASE_PORT: String(basePort) };
  const nodes = execFileSync('bash', [SCRIPT, 'start'], { env }).toString().trim();
  return { nodes, own: true, stop: () => void execFileSync('bash', [SCRIPT, 'stop'], { env }) };
}
