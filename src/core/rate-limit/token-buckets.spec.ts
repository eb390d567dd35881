import { randomBytes } from 'node:crypto';
import { BatchedTokenBuckets } from 'src/core/rate-limit/token-buckets';
import { connectRedis, parseClusterNodes } from 'src/core/redis/redis-connection';

/** The suite's Redis: one node (REDIS_URL), or the cluster of REDIS_CLUSTER_NODES (as in CI). */
const target = {
  url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/0',
  clusterNodes: parseClusterNodes(process.env.REDIS_CLUSTER_NODES),
};

describe('BatchedTokenBuckets (real Redis)', () => {
  const redisA = connectRedis(target, {});
  const redisB = connectRedis(target, {});
  const processA = new BatchedTokenBuckets(redisA);
  const processB = new BatchedTokenBuckets(redisB);
  const newKey = () => `rl:test:${randomBytes(6).toString('hex')}`;

  afterAll(async () => {
    processA.stop();
    processB.stop();
    await redisA.quit();
    await redisB.quit();
  });

  it('admits exactly the burst at once within one process', () => {
    const key = newKey();
    const answers = Array.from({ length: 4 }, () => processA.take(key, 0.001, 3));
    expect(answers.map((a) => a.allowed)).toEqual([true, true, true, false]);
    expect(answers.map((a) => a.remaining)).toEqual([2, 1, 0, 0]);
    expect(answers[3].retryAfterSeconds).toBeGreaterThan(0);
  });

  it('shares one bucket across processes once hits are flushed', async () => {
    const key = newKey();
    for (let i = 0; i < 5; i++) {
      expect(processA.take(key, 0.001, 8).allowed).toBe(true);
    }
    await processA.flush();
    for (let i = 0; i < 3; i++) {
      expect(processB.take(key, 0.001, 8).allowed).toBe(true);
    }
    await processB.flush();
    // B has now seen A's five hits from Redis: 5 + 3 = 8, the whole burst.
    expect(processB.take(key, 0.001, 8).allowed).toBe(false);
    expect(processA.take(key, 0.001, 8).allowed).toBe(true); // A's view is stale until it flushes
    await processA.flush();
    expect(processA.take(key, 0.001, 8).allowed).toBe(false); // and the overdraft is now debt
  });

  it('shares many keys flushed at once (one script run per slot in a cluster)', async () => {
    const keys = Array.from({ length: 12 }, newKey);
    keys.forEach((key) => expect(processA.take(key, 0.001, 2).allowed).toBe(true));
    await processA.flush();
    keys.forEach((key) => expect(processB.take(key, 0.001, 2).allowed).toBe(true));
    await processB.flush();
    // Every key's bucket in Redis lost A's hit as well as B's: none has a token left for B.
    keys.forEach((key) => expect(processB.take(key, 0.001, 2).allowed).toBe(false));
  });

  it('refills at the rate, never above the burst', async () => {
    const key = newKey();
    expect(processA.take(key, 20, 2).allowed).toBe(true);
    expect(processA.take(key, 20, 2).allowed).toBe(true);
    expect(processA.take(key, 20, 2).allowed).toBe(false);
    await processA.flush();
    await new Promise((r) => setTimeout(r, 120)); // 20/s × 0.12 s = 2.4 tokens, capped at 2
    expect(processA.take(key, 20, 2).remaining).toBe(1);
    expect(processA.take(key, 20, 2).allowed).toBe(true);
    expect(processA.take(key, 20, 2).allowed).toBe(false);
  });

  it('sends hits within FLUSH_MS once a bucket runs low, and waits up to RELAXED_FLUSH_MS while it holds plenty', async () => {
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const sharedTokens = async (key: string) => Number(await redisA.hget(key, 't'));
    // A process of its own: no timer armed by the cases above.
    const processC = new BatchedTokenBuckets(redisA);
    try {
      const plenty = newKey();
      processC.take(plenty, 0.001, 100); // 1 of 100: the hit may wait
      await sleep(50);
      expect(await redisA.exists(plenty)).toBe(0);
      const low = newKey();
      processC.take(low, 0.001, 8);
      processC.take(low, 0.001, 8); // 2 unsent hits, 6 left: over a quarter, sent soon
      await sleep(BatchedTokenBuckets.RELAXED_FLUSH_MS - 100);
      expect(await sharedTokens(low)).toBeCloseTo(6, 3);
      expect(await sharedTokens(plenty)).toBeCloseTo(99, 3); // in the same script run
    } finally {
      processC.stop();
    }
  });
});
