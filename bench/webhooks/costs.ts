import Redis from 'ioredis';
import { Client } from 'pg';
import { readQueryCount } from 'bench/lib/query-count';
import { backendCpuSeconds, backendCpuUsed, cpuSeconds, cpuSecondsSplit } from 'bench/lib/server-process';

/**
 * Where a scenario's time goes, per delivery: CPU of the service's processes (this one: API and
 * the emitters, with relay and queue consumer unless a worker process runs them), of the
 * PostgreSQL backends serving them, of redis-server and of the receiver; statements sent to
 * PostgreSQL and commands run by Redis (from `INFO commandstats`, which counts every client of
 * that server: the machine's other users too).
 */
export interface Costs {
  /** This process and the worker process, if any. */
  app_cpu_us: number;
  /** The part of app_cpu_us spent in the kernel (socket writes and reads, wake-ups). */
  app_system_cpu_us: number;
  /** The part of app_cpu_us on the JavaScript threads (the rest: garbage collector and compiler helpers). */
  app_main_thread_cpu_us: number;
  /** With a worker process: its share of app_cpu_us, and of app_main_thread_cpu_us. */
  worker_cpu_us?: number;
  worker_main_thread_cpu_us?: number;
  postgres_cpu_us: number;
  redis_cpu_us: number | null;
  receiver_cpu_us: number;
  statements: number;
  redis_commands: number;
  /** Redis's own time per delivery in its three most used commands (µs). */
  redis_top_commands: Record<string, { calls: number; us: number }>;
}

let statements = 0;

/** Counts the statements this process sends to PostgreSQL; call before the app is created. */
export function countStatements(): void {
  const query = Client.prototype.query as (...args: unknown[]) => unknown;
  Client.prototype.query = function counted(this: Client, ...args: unknown[]) {
    statements++;
    return query.apply(this, args);
  } as typeof Client.prototype.query;
}

type CommandStats = Map<string, { calls: number; usec: number }>;

async function commandStats(redis: Redis): Promise<CommandStats> {
  const stats: CommandStats = new Map();
  for (const line of (await redis.info('commandstats')).split('\n')) {
    const match = /^cmdstat_([^:]+):calls=(\d+),usec=(\d+)/.exec(line.trim());
    if (match) {
      stats.set(match[1], { calls: Number(match[2]), usec: Number(match[3]) });
    }
  }
  return stats;
}

/** The worker process of the deployed shape: its pid and the file its statement count goes to. */
export interface MeteredWorker {
  pid: number;
  queryCountFile: string;
}

export class CostMeter {
  private readonly redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/0');
  private redisPid: number | null = null;

  constructor(
    private readonly admin: Client,
    private readonly applicationName: string,
    private readonly receiverPid: number,
    private readonly worker?: MeteredWorker,
  ) {}

  async start(): Promise<(deliveries: number) => Promise<Costs>> {
    if (this.redisPid === null) {
      const pid = /process_id:(\d+)/.exec(await this.redis.info('server'))?.[1];
      this.redisPid = pid ? Number(pid) : null;
    }
    const redisCpu = () => {
      try {
        return this.redisPid === null ? null : cpuSeconds(this.redisPid);
      } catch {
        return null; // not ours to read (another container)
      }
    };
    const app = process.cpuUsage();
    const mainThread = cpuSeconds(process.pid, process.pid);
    const pg = await backendCpuSeconds(this.admin, this.applicationName);
    const redis = redisCpu();
    const receiver = cpuSeconds(this.receiverPid);
    const commands = await commandStats(this.redis);
    const worker = this.worker;
    const workerCpu = () =>
      worker ? { ...cpuSecondsSplit(worker.pid), main: cpuSeconds(worker.pid, worker.pid) } : null;
    const workerStatements = async () => (worker ? await readQueryCount(worker.queryCountFile) : 0);
    const workerBefore = workerCpu();
    const sent = statements + (await workerStatements());
    return async (deliveries: number) => {
      const per = (x: number) => Number(((x * 1e6) / deliveries).toFixed(1));
      const appUsed = process.cpuUsage(app);
      const workerAfter = workerCpu();
      const workerUsed =
        workerBefore && workerAfter
          ? {
              all: workerAfter.user + workerAfter.system - workerBefore.user - workerBefore.system,
              system: workerAfter.system - workerBefore.system,
              main: workerAfter.main - workerBefore.main,
            }
          : { all: 0, system: 0, main: 0 };
      const redisAfter = redisCpu();
      const after = await commandStats(this.redis);
      const used = [...after].map(([name, s]) => {
        const before = commands.get(name) ?? { calls: 0, usec: 0 };
        return { name, calls: s.calls - before.calls, usec: s.usec - before.usec };
      });
      const top = used.sort((a, b) => b.usec - a.usec).slice(0, 3);
      return {
        app_cpu_us: per((appUsed.user + appUsed.system) / 1e6 + workerUsed.all),
        app_system_cpu_us: per(appUsed.system / 1e6 + workerUsed.system),
        app_main_thread_cpu_us: per(cpuSeconds(process.pid, process.pid) - mainThread + workerUsed.main),
        ...(worker
          ? { worker_cpu_us: per(workerUsed.all), worker_main_thread_cpu_us: per(workerUsed.main) }
          : {}),
        postgres_cpu_us: per(backendCpuUsed(pg, await backendCpuSeconds(this.admin, this.applicationName))),
        redis_cpu_us: redis === null || redisAfter === null ? null : per(redisAfter - redis),
        receiver_cpu_us: per(cpuSeconds(this.receiverPid) - receiver),
        statements: Number(((statements + (await workerStatements()) - sent) / deliveries).toFixed(2)),
        redis_commands: Number((used.reduce((n, c) => n + c.calls, 0) / deliveries).toFixed(2)),
        redis_top_commands: Object.fromEntries(
          top.map((c) => [
            c.name,
            {
              calls: Number((c.calls / deliveries).toFixed(2)),
              us: Number((c.usec / deliveries).toFixed(1)),
            },
          ]),
        ),
      };
    };
  }

  /** CPU seconds the receiver has used so far. */
  receiverCpu(): number {
    return cpuSeconds(this.receiverPid);
  }

  close(): void {
    this.redis.disconnect();
  }
}
