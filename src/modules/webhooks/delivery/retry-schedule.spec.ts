import { MAX_ATTEMPTS, retryDelayMs } from 'src/modules/webhooks/delivery/retry-schedule';

describe('retry schedule', () => {
  it('follows the spec: 1 min, 5 min, 30 min, 2 h, 8 h, then nothing', () => {
    const middle = () => 0.5;
    expect([1, 2, 3, 4, 5].map((a) => retryDelayMs(a, middle))).toEqual([
      60_000, 300_000, 1_800_000, 7_200_000, 28_800_000,
    ]);
    expect(retryDelayMs(6)).toBeNull();
    expect(MAX_ATTEMPTS).toBe(6);
  });

  it('jitter stays within 5 %', () => {
    expect(retryDelayMs(1, () => 0)).toBe(57_000);
    expect(retryDelayMs(1, () => 1)).toBe(63_000);
    expect(retryDelayMs(5, () => 0)).toBe(27_360_000);
  });
});
