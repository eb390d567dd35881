import { Inject, Injectable } from '@nestjs/common';
import type { RedisConnection } from 'src/core/redis/redis-connection';
import { AppConfig } from 'src/core/config/app-config.service';
import { REDIS } from 'src/core/redis/redis.module';

/** A slot is held while its stream renews it; one whose process died frees itself after this long. */
export const SLOT_LEASE_MS = 45_000;

/**
 * Takes a slot when fewer than ARGV[3] unexpired slots are held. A sorted set per key: members are
 * stream ids, scores the time their lease ends. Atomic in Redis, so processes cannot race past it.
 */
const TAKE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then
  return 0
end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1
`;

/**
 * The per-key limit of open event streams (EVENT_STREAM_MAX_PER_KEY), counted across every API
 * process through Redis. A stream takes a slot before it opens, renews it with each heartbeat and
 * gives it back the moment it closes.
 */
@Injectable()
export class StreamSlots {
  readonly max: number;

  constructor(
    @Inject(REDIS) private readonly redis: RedisConnection,
    config: AppConfig,
  ) {
    this.max = config.get('EVENT_STREAM_MAX_PER_KEY');
  }

  /** True when the slot was taken; false when the key holds `max` open streams already. */
  async take(keyId: string, streamId: string): Promise<boolean> {
    const now = Date.now();
    const taken = await this.redis.eval(
      TAKE,
      1,
      slotKey(keyId),
      now,
      now + SLOT_LEASE_MS,
      this.max,
      streamId,
      SLOT_LEASE_MS * 2,
    );
    return taken === 1;
  }

  async renew(keyId: string, streamId: string): Promise<void> {
    await this.redis.zadd(slotKey(keyId), 'XX', Date.now() + SLOT_LEASE_MS, streamId);
    await this.redis.pexpire(slotKey(keyId), SLOT_LEASE_MS * 2);
  }

  async release(keyId: string, streamId: string): Promise<void> {
    await this.redis.zrem(slotKey(keyId), streamId);
  }
}

function slotKey(keyId: string): string {
  return `event-streams:${keyId}`;
}
