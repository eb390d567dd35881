import Redis from 'ioredis';
import { randomBytes } from 'node:crypto';
import { BatchedRedisThrottlerStorage } from 'src/core/rate-limit/batched-redis.storage';

describe('BatchedRedisThrottlerStorage (real Redis)', () => {
  const redisA = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/0');
  const redisB = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/0');
  const processA = new BatchedRedisThrottlerStorage(redisA);
  const processB = new BatchedRedisThrottlerStorage(redisB);

  afterAll(async () => {
    processA.stop();
    processB.stop();
    await redisA.quit();
    await redisB.quit();
  });

  it('counts exactly within one process and blocks past the limit', async () => {
    const key = `rl:test:${randomBytes(6).toString('hex')}`;
    const results = [];
    for (let i = 0; i < 4; i++) {
      results.push(await processA.increment(key, 60_000, 3));
    }
    expect(results.map((r) => r.totalHits)).toEqual([1, 2, 3, 4]);
    expect(results.map((r) => r.isBlocked)).toEqual([false, false, false, true]);
    expect(results[3].timeToBlockExpire).toBeGreaterThan(0);
  });

  it('shares one budget across processes once counts are flushed', async () => {
    const key = `rl:test:${randomBytes(6).toString('hex')}`;
    for (let i = 0; i < 5; i++) {
      await processA.increment(key, 60_000, 8);
    }
    await processA.flush();
    for (let i = 0; i < 3; i++) {
      await processB.increment(key, 60_000, 8);
    }
    await processB.flush();
    // B has now seen A's five hits from Redis: 5 + 3 + this one = 9 > 8.
    const next = await processB.increment(key, 60_000, 8);
    expect(next.totalHits).toBe(9);
    expect(next.isBlocked).toBe(true);
  });

  it('starts a fresh count in the next window', async () => {
    const key = `rl:test:${randomBytes(6).toString('hex')}`;
    await processA.increment(key, 200, 1);
    expect((await processA.increment(key, 200, 1)).isBlocked).toBe(true);
    await new Promise((r) => setTimeout(r, 250));
    expect((await processA.increment(key, 200, 1)).isBlocked).toBe(false);
  });
});
