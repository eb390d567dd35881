import type { AdvancedSettings } from 'bull';

export type QueueLockSettings = Required<
  Pick<AdvancedSettings, 'lockDuration' | 'lockRenewTime' | 'stalledInterval'>
>;

/**
 * Bull's lock settings of a queue whose jobs are taken up again within `jobLockMs` (JOB_LOCK_MS)
 * once the process running them died. A running job holds a lock of half that, renewed every
 * quarter; every quarter a consumer puts back the jobs whose lock lapsed. A dead process's locks
 * lapse at most half of it after its death, and the next look comes within two quarters (Bull
 * skips a look when the previous one's marker has not quite expired): before `jobLockMs` has
 * passed. A live process renews well before its lock lapses, so it keeps its jobs.
 */
export function queueLockSettings(jobLockMs: number): QueueLockSettings {
  const quarter = Math.floor(jobLockMs / 4);
  return { lockDuration: 2 * quarter, lockRenewTime: quarter, stalledInterval: quarter };
}
