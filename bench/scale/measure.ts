import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import Redis from 'ioredis';
import { LoadResult, runLoad } from 'bench/lib/load';
import { readQueryCount } from 'bench/lib/query-count';
import { backendCpuSeconds, backendCpuUsed, cpuSeconds } from 'bench/lib/server-process';

/** A process of the bench: an API process (`api1`, `api2`) or the worker. */
export interface BenchProcess {
  name: string;
  port: number;
  pid: number;
  /** Where the process writes the count of statements it has sent to PostgreSQL. */
  countFile: string;
}

/** What one round of one configuration measured. */
export interface RoundFigures {
  load: LoadResult;
  /** CPU seconds of each process (by name) over the round and the worker's catch-up after it. */
  cpu: Record<string, number>;
  /** CPU seconds of the PostgreSQL backends serving each process (by name), same span. */
  dbCpu: Record<string, number>;
  /** Statements each process (by name) sent to PostgreSQL, BEGIN and COMMIT included, same span. */
  statements: Record<string, number>;
  /** CPU seconds of this process, the load generator (it shares the machine's CPUs too). */
  loadGeneratorCpu: number;
  /** CPU seconds of the whole redis-server, from INFO (shared with any other work using it). */
  redisCpu: number;
  /** Share of the machine's CPUs busy while the load ran (all work on the machine, not only ours). */
  machineBusy: number;
  /** Seconds from the last response until the worker's CPU went quiet. */
  workerCatchUpSeconds: number;
  loadAverage: number;
}

type Admin = Parameters<typeof backendCpuSeconds>[0];

/** The application_name a process's DATABASE_URL carries (backendCpuSeconds finds its backends by it). */
export const applicationName = (process: string) => `bench_scale_${process}`;

/** Busy and total jiffies of all CPUs, from /proc/stat. */
function machineJiffies(): { busy: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const total = fields.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: total - fields[3] - fields[4], total };
}

const QUIET_POLL_MS = 250;
/** CPU a quiet worker may use per poll (its relays' and scheduler's timers): 4 % of a core. */
const QUIET_CPU_SECONDS = 0.01;
const CATCH_UP_LIMIT_MS = 20_000;

/**
 * Waits until the worker has caught up with what the round left it (events to relay, jobs to run):
 * two polls in a row with its CPU under QUIET_CPU_SECONDS, at most CATCH_UP_LIMIT_MS.
 */
async function workerCatchUp(pid: number): Promise<number> {
  const started = Date.now();
  let last = cpuSeconds(pid);
  let quiet = 0;
  while (quiet < 2 && Date.now() - started < CATCH_UP_LIMIT_MS) {
    await new Promise((resolve) => setTimeout(resolve, QUIET_POLL_MS));
    const now = cpuSeconds(pid);
    quiet = now - last < QUIET_CPU_SECONDS ? quiet + 1 : 0;
    last = now;
  }
  return (Date.now() - started) / 1000;
}

/** used_cpu_user + used_cpu_sys of the redis-server `redis` is connected to. */
export async function redisCpuSeconds(redis: Redis): Promise<number> {
  const info = await redis.info('cpu');
  const field = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1] ?? 0);
  return field('used_cpu_user') + field('used_cpu_sys');
}

async function readings(admin: Admin, redis: Redis, processes: BenchProcess[]) {
  const usage = process.cpuUsage();
  const self = (usage.user + usage.system) / 1e6;
  const redisCpu = await redisCpuSeconds(redis);
  const cpu: Record<string, number> = {};
  const db: Record<string, Map<number, number>> = {};
  const counts = await Promise.all(processes.map((p) => readQueryCount(p.countFile)));
  const statements = Object.fromEntries(processes.map((p, i) => [p.name, counts[i]]));
  for (const p of processes) {
    cpu[p.name] = cpuSeconds(p.pid);
    db[p.name] = await backendCpuSeconds(admin, applicationName(p.name));
  }
  return { cpu, db, statements, self, redisCpu, machine: machineJiffies() };
}

/**
 * One round: `total` requests spread round-robin over `targets` (the API processes of the
 * configuration), every process of the bench (`all`: both API processes and the worker, so an idle
 * one's timers count too) and their PostgreSQL backends read before the load and after the worker
 * has caught up. Every request must answer 201.
 */
export async function measureRound(
  admin: Admin,
  redis: Redis,
  all: BenchProcess[],
  targets: BenchProcess[],
  load: Omit<Parameters<typeof runLoad>[0], 'port'>,
): Promise<RoundFigures> {
  const worker = all.find((p) => p.name === 'worker')!;
  const before = await readings(admin, redis, all);
  const result = await runLoad({ ...load, port: targets.map((t) => t.port) });
  const loadEnd = machineJiffies();
  if (result.statuses[201] !== load.total) {
    throw new Error(`not every request answered 201: ${JSON.stringify(result.statuses)}`);
  }
  const workerCatchUpSeconds = await workerCatchUp(worker.pid);
  const after = await readings(admin, redis, all);
  const cpu: Record<string, number> = {};
  const dbCpu: Record<string, number> = {};
  const statements: Record<string, number> = {};
  for (const p of all) {
    cpu[p.name] = after.cpu[p.name] - before.cpu[p.name];
    statements[p.name] = after.statements[p.name] - before.statements[p.name];
    dbCpu[p.name] = backendCpuUsed(before.db[p.name], after.db[p.name]);
  }
  const machineBusy =
    (loadEnd.busy - before.machine.busy) / Math.max(1, loadEnd.total - before.machine.total);
  return {
    load: result,
    cpu,
    dbCpu,
    statements,
    loadGeneratorCpu: after.self - before.self,
    redisCpu: after.redisCpu - before.redisCpu,
    machineBusy,
    workerCatchUpSeconds,
    loadAverage: loadavg()[0],
  };
}

/**
 * CPU milliseconds per second each process and its PostgreSQL backends use over `seconds` with no
 * requests: the timers (relays, scheduler, engine sweep, request log, rate-limit sync, key cache).
 */
export async function idleSpan(
  admin: Admin,
  redis: Redis,
  all: BenchProcess[],
  seconds: number,
): Promise<{ cpu_ms_per_s: Record<string, number>; db_cpu_ms_per_s: Record<string, number> }> {
  const before = await readings(admin, redis, all);
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const after = await readings(admin, redis, all);
  const perSecond = (used: number) => Number(((used / seconds) * 1000).toFixed(1));
  return {
    cpu_ms_per_s: Object.fromEntries(
      all.map((p) => [p.name, perSecond(after.cpu[p.name] - before.cpu[p.name])]),
    ),
    db_cpu_ms_per_s: Object.fromEntries(
      all.map((p) => [p.name, perSecond(backendCpuUsed(before.db[p.name], after.db[p.name]))]),
    ),
  };
}
