import { Agent, request } from 'node:http';
import type { LoadResult } from 'bench/lib/load';

/**
 * A bounded closed-loop load over a rotating list of paths: `concurrency` keep-alive connections send
 * requests back to back until `total` have completed. Loopback only.
 */
export async function runMixedLoad(options: {
  port: number;
  paths: string[];
  headers?: Record<string, string>;
  total: number;
  concurrency: number;
}): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency });
  const statuses: Record<number, number> = {};
  const latencies: number[] = [];
  let started = 0;
  const once = (path: string) =>
    new Promise<void>((resolve, reject) => {
      const t0 = process.hrtime.bigint();
      const req = request(
        { host: '127.0.0.1', port: options.port, path, agent, headers: options.headers ?? {} },
        (res) => {
          res.resume();
          res.on('end', () => {
            statuses[res.statusCode ?? 0] = (statuses[res.statusCode ?? 0] ?? 0) + 1;
            latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
            resolve();
          });
        },
      );
      req.on('error', reject);
      req.end();
    });
  const worker = async () => {
    while (started < options.total) {
      const path = options.paths[started % options.paths.length];
      started++;
      await once(path);
    }
  };
  const t0 = process.hrtime.bigint();
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    requests: options.total,
    seconds,
    perSecond: options.total / seconds,
    statuses,
    p50ms: latencies[Math.floor(latencies.length * 0.5)] ?? 0,
    p99ms: latencies[Math.floor(latencies.length * 0.99)] ?? 0,
  };
}
