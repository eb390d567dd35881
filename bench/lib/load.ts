import { Agent, request } from 'node:http';

export interface LoadResult {
  requests: number;
  seconds: number;
  perSecond: number;
  statuses: Record<number, number>;
  p50ms: number;
  p99ms: number;
}

/**
 * A bounded closed-loop load: `concurrency` keep-alive connections each sending requests back
 * to back until `total` have completed. Loopback only. Given several ports (one per server
 * process), request i goes to ports[i % length]: round-robin over the processes.
 */
export async function runLoad(options: {
  port: number | number[];
  /** One path, or a list sent in turn (request i goes to paths[i % length]). */
  path: string | string[];
  method?: string;
  /** Fixed headers, or headers per request (`i` counts requests from 0). */
  headers?: Record<string, string> | ((i: number) => Record<string, string>);
  body?: (i: number) => string;
  total: number;
  concurrency: number;
}): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency });
  const statuses: Record<number, number> = {};
  const latencies: number[] = [];
  let started = 0;
  const paths = Array.isArray(options.path) ? options.path : [options.path];
  const ports = Array.isArray(options.port) ? options.port : [options.port];
  const once = (path: string, i: number) =>
    new Promise<void>((resolve, reject) => {
      const body = options.body?.(i);
      const headers = typeof options.headers === 'function' ? options.headers(i) : (options.headers ?? {});
      const t0 = process.hrtime.bigint();
      const req = request(
        {
          host: '127.0.0.1',
          port: ports[i % ports.length],
          path,
          method: options.method ?? 'GET',
          agent,
          headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
        },
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
      req.end(body);
    });
  const worker = async () => {
    while (started < options.total) {
      const i = started++;
      await once(paths[i % paths.length], i);
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

/** Alternates rounds of two targets so machine noise hits both alike; returns median rates. */
export async function compare(
  rounds: number,
  a: () => Promise<LoadResult>,
  b: () => Promise<LoadResult>,
): Promise<{ a: number; b: number; ratio: number; samples: Array<[number, number]> }> {
  const samples: Array<[number, number]> = [];
  for (let i = 0; i < rounds; i++) {
    samples.push([(await a()).perSecond, (await b()).perSecond]);
  }
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  const ma = median(samples.map((s) => s[0]));
  const mb = median(samples.map((s) => s[1]));
  return { a: ma, b: mb, ratio: ma / mb, samples };
}

/**
 * compare for any number of targets: rounds alternate over all of them; answers each one's
 * median rate and median p99 (ms) over the rounds, and every round's rates.
 */
export async function compareAll<K extends string>(
  rounds: number,
  targets: Record<K, () => Promise<LoadResult>>,
): Promise<{ rate: Record<K, number>; p99ms: Record<K, number>; samples: Array<Record<K, number>> }> {
  const names = Object.keys(targets) as K[];
  const results: Array<Record<K, LoadResult>> = [];
  for (let i = 0; i < rounds; i++) {
    const round = {} as Record<K, LoadResult>;
    for (const name of names) {
      round[name] = await targets[name]();
    }
    results.push(round);
  }
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  const rate = {} as Record<K, number>;
  const p99ms = {} as Record<K, number>;
  for (const name of names) {
    rate[name] = median(results.map((r) => r[name].perSecond));
    p99ms[name] = median(results.map((r) => r[name].p99ms));
  }
  const samples = results.map((r) => {
    const row = {} as Record<K, number>;
    for (const name of names) {
      row[name] = Math.round(r[name].perSecond);
    }
    return row;
  });
  return { rate, p99ms, samples };
}
