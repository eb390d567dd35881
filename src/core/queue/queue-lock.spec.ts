import { queueLockSettings } from 'src/core/queue/queue-lock';

describe('queueLockSettings', () => {
  it.each([1000, 2000, 6000, 30000, 600000])(
    'puts a dead process’s job back within JOB_LOCK_MS=%i, and a live one renews its lock in time',
    (jobLockMs) => {
      const { lockDuration, lockRenewTime, stalledInterval } = queueLockSettings(jobLockMs);
      // The lock lapses at most lockDuration after the death; the next look within two intervals.
      expect(lockDuration + 2 * stalledInterval).toBeLessThanOrEqual(jobLockMs);
      // A live process renews twice per lock: one late renewal does not lose the job.
      expect(2 * lockRenewTime).toBeLessThanOrEqual(lockDuration);
      expect(stalledInterval).toBeGreaterThan(0);
    },
  );

  it('keeps 30 s by default: a 15 s lock renewed every 7.5 s, looked at every 7.5 s', () => {
    expect(queueLockSettings(30000)).toEqual({
      lockDuration: 15000,
      lockRenewTime: 7500,
      stalledInterval: 7500,
    });
  });
});
