import { getQueueToken } from '@nestjs/bull';
import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { Queue, QueueOptions } from 'bull';
import { AppConfig } from 'src/core/config/app-config.service';
import {
  connectRedis,
  isClustered,
  type RedisConnection,
  type RedisTarget,
} from 'src/core/redis/redis-connection';

/**
 * Bull's Redis options for this deployment. On one node: REDIS_URL, and Bull opens its own
 * connections. In a cluster Bull cannot open them itself, so each queue's `createClient` does,
 * with the options Bull requires of its blocking and subscriber connections, and hands them to
 * the queue's own list of connections: Bull then closes them as it closes its own (a blocked one
 * cut, the others quit), in its order, at the queue's close.
 */
@Injectable()
export class QueueConnections implements OnApplicationBootstrap, OnApplicationShutdown {
  /** Connections opened before their queue could be looked up, by queue name. */
  private readonly waiting = new Map<string, RedisConnection[]>();
  private readonly queues = new Map<string, Queue>();

  constructor(
    private readonly config: AppConfig,
    private readonly moduleRef: ModuleRef,
  ) {
    if (isClustered(config.redis)) {
      letClosedClusterCommandsGo();
    }
  }

  rootOptions(): QueueOptions & { url?: string } {
    const target = this.config.redis;
    const prefix = this.config.get('QUEUE_PREFIX');
    return isClustered(target) ? { prefix } : { url: target.url, prefix };
  }

  /** The options of one queue: its key prefix, and in a cluster its connections. */
  queueOptions(queueName: string): QueueOptions {
    const target = this.config.redis;
    const prefix = queueKeyPrefix(this.config.get('QUEUE_PREFIX'), queueName, isClustered(target));
    if (!isClustered(target)) {
      return { prefix };
    }
    this.waiting.set(queueName, this.waiting.get(queueName) ?? []);
    return {
      prefix,
      createClient: (type) => {
        const connection = openBullConnection(target, type);
        const queue = this.queues.get(queueName);
        if (queue) {
          clientsOf(queue).push(connection);
        } else {
          this.waiting.get(queueName)?.push(connection);
        }
        return connection as never;
      },
    };
  }

  onApplicationBootstrap(): void {
    for (const [queueName, connections] of this.waiting) {
      const queue = this.moduleRef.get<Queue>(getQueueToken(queueName), { strict: false });
      this.queues.set(queueName, queue);
      clientsOf(queue).push(...connections.splice(0));
    }
  }

  /** Connections of an app that stopped before its queues were looked up (a failed boot). */
  onApplicationShutdown(): void {
    for (const connections of this.waiting.values()) {
      connections.splice(0).forEach((connection) => connection.disconnect());
    }
  }
}

let lettingClosedCommandsGo = false;

/**
 * Closing a queue pauses it, and Bull's pause cuts its blocking connection and connects it again;
 * a cluster connection cut while it is still connecting rejects the commands ioredis itself had
 * queued on it (its slot refresh, its subscriber's set-up) with no handler, and the process died
 * of "Connection is closed." while shutting down cleanly. A command nobody awaits cannot be
 * waited for: that one rejection is let go; any other unhandled rejection still ends the process.
 */
function letClosedClusterCommandsGo(): void {
  if (lettingClosedCommandsGo) {
    return;
  }
  lettingClosedCommandsGo = true;
  process.on('unhandledRejection', (reason: unknown) => {
    if (!(reason instanceof Error && reason.message === 'Connection is closed.')) {
      throw reason;
    }
  });
}

function clientsOf(queue: Queue): RedisConnection[] {
  return (queue as unknown as { clients: RedisConnection[] }).clients;
}

/**
 * The key prefix of one queue. In a cluster every key of a queue must share a slot (Bull's
 * scripts touch several at once), so the queue's name becomes the hash tag: each queue lives on
 * one slot and different queues spread over the masters. On one node the prefix stays
 * QUEUE_PREFIX, so the keys of queued jobs do not move when a deployment upgrades.
 */
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
