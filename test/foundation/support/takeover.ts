import type Queue from 'bull';
import type { Receiver } from '../../webhooks/support/receiver';
import type { WorkerProcess } from './worker-process';

/** A job Bull found stalled: it was active, and its lock lapsed (the process holding it died). */
export interface StalledJob {
  queue: string;
  id: string;
  state: string;
  /** When it last started, and when it ended (epoch ms, Bull's record). */
  processedOn: number | null;
  finishedOn: number | null;
}

/**
 * The jobs of these queues that were put back after their lock lapsed: Bull counts that on the
 * job (`stalledCounter`). A live process renews its jobs' locks, so these are the jobs a dead
 * process held.
 */
export async function stalledJobs(queues: Queue.Queue[]): Promise<StalledJob[]> {
  const found: StalledJob[] = [];
  for (const queue of queues) {
    const jobs = (await queue.getJobs(['completed', 'failed', 'active', 'waiting', 'delayed'])).filter(
      (job): job is Queue.Job => job !== null,
    );
    const counters = await Promise.all(
      jobs.map((job) => queue.client.hget(queue.toKey(String(job.id)), 'stalledCounter')),
    );
    const stalled = jobs.filter((_, i) => Number(counters[i] ?? 0) > 0);
    for (const job of stalled) {
      found.push({
        queue: queue.name,
        id: String(job.id),
        state: await job.getState(),
        processedOn: job.processedOn ?? null,
        finishedOn: job.finishedOn ?? null,
      });
    }
  }
  return found;
}

/**
 * Kills `victim` (kill -9) while it holds webhook deliveries. The receivers answer only after
 * `holdMs` while `traffic` runs; once one of them holds more requests at once than one process may
 * send to an endpoint (`perProcessSlots`: WEBHOOK_CONCURRENCY / 4), every worker has deliveries in
 * flight, the victim among them, and it is killed. The receivers answer at once again afterwards
 * (the requests already held get their answer after `holdMs`). Answers when the kill was sent.
 */
export async function killWhileDelivering<T>(
  victim: WorkerProcess,
  receivers: Receiver[],
  options: { perProcessSlots: number; holdMs: number; traffic: () => Promise<T> },
): Promise<{ killedAt: number; traffic: Promise<T> }> {
  receivers.forEach((r) => r.answerWith({ status: 200, afterMs: options.holdMs }));
  const traffic = options.traffic();
  traffic.catch(() => undefined); // the caller awaits it; a failure before then is not unhandled
  const deadline = Date.now() + 60_000;
  while (!receivers.some((r) => r.gauge.now > options.perProcessSlots)) {
    if (Date.now() > deadline) {
      throw new Error(`No receiver held more than ${options.perProcessSlots} requests at once within 60 s.`);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const killedAt = Date.now();
  await victim.kill();
  receivers.forEach((r) => r.answerWith(200));
  return { killedAt, traffic };
}
