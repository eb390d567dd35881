import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import type { QueueOptions } from 'bull';
import { AppConfig } from 'src/core/config/app-config.service';
import { settleConnections } from 'src/core/queue/settle-connections';
import {
  connectRedis,
  isClustered,
  type RedisConnection,
  type RedisTarget,
} from 'src/core/redis/redis-connection';

/**
 * Bull's Redis options for this deployment. On one node: REDIS_URL, and Bull opens its own
 * connections. In a cluster Bull cannot open them itself, so `createClient` does, with the
 * options Bull requires of its blocking and subscriber connections; they are kept here so that
 * shutdown can close them (Bull closes only connections it opened).
 */
@Injectable()
export class QueueConnections implements OnApplicationShutdown {
  private readonly opened = new Set<RedisConnection>();

  constructor(private readonly config: AppConfig) {}

  rootOptions(): QueueOptions & { url?: string } {
    const target = this.config.redis;
    if (!isClustered(target)) {
      return { url: target.url, prefix: this.config.get('QUEUE_PREFIX') };
    }
    return {
      prefix: this.config.get('QUEUE_PREFIX'),
      createClient: (type) => {
        const connection = openBullConnection(target, type);
        this.opened.add(connection);
        connection.once('end', () => this.opened.delete(connection));
        return connection as never;
      },
    };
  }

  /** Closes the cluster connections Bull was given (queues close earlier, in onModuleDestroy). */
  async onApplicationShutdown(): Promise<void> {
    // A connection closed while still handshaking rejects its queued commands with nobody
    // listening, and the process dies of it: wait until each is ready or gone, as for one node.
    await settleConnections([...this.opened]);
    await Promise.all(
      [...this.opened].map((connection) =>
        connection.status === 'ready'
          ? connection.quit().catch(() => connection.disconnect())
          : Promise.resolve(connection.disconnect()),
      ),
    );
    this.opened.clear();
  }
}

/**
 * The key prefix of one queue. In a cluster every key of a queue must share a slot (Bull's
 * scripts touch several at once), so the queue's name becomes the hash tag: each queue lives on
 * one slot and different queues spread over the masters. On one node the prefix stays
 * QUEUE_PREFIX, so the keys of queued jobs do not move when a deployment upgrades.
 */
export function queuePrefix(config: AppConfig, queueName: string): string {
  return queueKeyPrefix(config.get('QUEUE_PREFIX'), queueName, isClustered(config.redis));
}

export function queueKeyPrefix(prefix: string, queueName: string, clustered: boolean): string {
  return clustered ? `${prefix}:{${queueName}}` : prefix;
}

/** A connection Bull asked for: its blocking and subscriber ones must wait and retry forever. */
export function openBullConnection(target: RedisTarget, type: string): RedisConnection {
  return connectRedis(
    target,
    type === 'client' ? {} : { maxRetriesPerRequest: null, enableReadyCheck: false },
  );
}
