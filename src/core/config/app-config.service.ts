import { Injectable } from '@nestjs/common';
import { Environment, validateEnvironment } from 'src/core/config/environment';
import { parseClusterNodes, type RedisTarget } from 'src/core/redis/redis-connection';

/**
 * Typed, read-only access to the validated environment. Validation runs when the app (or
 * CLI) is created, not when modules are imported, so a bad value fails the boot with one
 * line naming it, and tests can set variables before creating an app.
 */
@Injectable()
export class AppConfig {
  private readonly env: Environment = validateEnvironment(process.env);

  get<K extends keyof Environment>(key: K): Environment[K] {
    return this.env[key];
  }

  /** The Redis every user connects to: the cluster of REDIS_CLUSTER_NODES, else REDIS_URL. */
  get redis(): RedisTarget {
    return { url: this.get('REDIS_URL'), clusterNodes: parseClusterNodes(this.get('REDIS_CLUSTER_NODES')) };
  }

  /** DATABASE_REPLICA_URLS as a list (empty: no replicas). */
  get databaseReplicaUrls(): string[] {
    return (this.get('DATABASE_REPLICA_URLS') ?? '')
      .split(',')
      .map((url) => url.trim())
      .filter((url) => url.length > 0);
  }

  get isProduction(): boolean {
    return this.get('APP_ENV') === 'production';
  }
}
