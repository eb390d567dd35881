import type { INestApplicationContext } from '@nestjs/common';
import { AppConfig } from 'src/core/config/app-config.service';
import { flushLogs } from 'src/core/logging/app-logger';
import { isClustered } from 'src/core/redis/redis-connection';

/** `msg` of the worker's ready line. */
export const WORKER_READY_MSG = 'worker ready';

/** The worker's ready line, one JSON object. */
export interface WorkerReadyLine {
  msg: typeof WORKER_READY_MSG;
  pid: number;
  /** `cluster` when REDIS_CLUSTER_NODES is set, else `single` (REDIS_URL). */
  redis: 'cluster' | 'single';
  queue_prefix: string;
  /** Within this long a job of a process that died is taken up by another (JOB_LOCK_MS). */
  job_lock_ms: number;
}

/**
 * Writes the worker's ready line to stdout once its consumers and relays have started, whatever
 * LOG_LEVEL says: one JSON object on a line of its own, `{"msg":"worker ready",...}`, after the log
 * lines buffered so far. Supervisors and tests wait for it.
 */
export function writeWorkerReady(app: INestApplicationContext): WorkerReadyLine {
  const config = app.get(AppConfig);
  const line: WorkerReadyLine = {
    msg: WORKER_READY_MSG,
    pid: process.pid,
    redis: isClustered(config.redis) ? 'cluster' : 'single',
    queue_prefix: config.get('QUEUE_PREFIX'),
    job_lock_ms: config.get('JOB_LOCK_MS'),
  };
  flushLogs();
  process.stdout.write(`${JSON.stringify(line)}\n`);
  return line;
}
