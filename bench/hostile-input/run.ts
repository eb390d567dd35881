import 'reflect-metadata';
import { loadavg } from 'node:os';
import { dropBenchDatabase, prepareBenchDatabase } from 'bench/lib/bench-database';
import { cpuSeconds, startService } from 'bench/lib/server-process';

/**
 * What a hostile JSON body costs the service's event loop (issue: one request froze the service):
 * main-thread CPU per request, in the server's own process, for each body the bounds were made for,
 * against an ordinary order body refused for one unknown field on the same route (the baseline).
 * Requests are sent one at a time, so a request's main-thread CPU is the longest it can hold the
 * loop. Before the bounds, 50,000 keys held it for 13 s. Target: each under 50 ms.
 */
const DB = process.env.BENCH_HOSTILE_DB ?? 'svc_bench_hostile_input';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const HOSTILE_REQUESTS = Number(process.env.BENCH_REQUESTS ?? 10);
/** The baseline costs a few ms: more of them, so /proc's 10 ms CPU ticks resolve it. */
const BASELINE_REQUESTS = HOSTILE_REQUESTS * 20;
/** No investor is made: every body is refused before the route looks one up. */
const ORDERS = '/v1/investors/inv_bench000000000000000/orders';

const manyKeys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));
const order = {
  symbol: 'AAPL',
  side: 'buy',
  type: 'limit',
  time_in_force: 'day',
  quantity: '1',
  limit_price: '5',
};

const bodies: Array<{ name: string; path: string; body: unknown; requests: number }> = [
  {
    name: 'baseline: order with one unknown field',
    path: ORDERS,
    body: { ...order, zz: 1 },
    requests: BASELINE_REQUESTS,
  },
  { name: '50,000 keys', path: ORDERS, body: manyKeys(50_000), requests: HOSTILE_REQUESTS },
  { name: '70,000 keys', path: ORDERS, body: manyKeys(70_000), requests: HOSTILE_REQUESTS },
  {
    name: 'array of 60,000 items',
    path: ORDERS,
    body: { ...order, metadata: Array.from({ length: 60_000 }, (_, i) => i) },
    requests: HOSTILE_REQUESTS,
  },
  {
    name: '999 objects of 99 keys in an unknown field',
    path: ORDERS,
    body: { ...order, zz: Array.from({ length: 999 }, () => manyKeys(99)) },
    requests: HOSTILE_REQUESTS,
  },
  {
    name: '999 strings of 900 characters in an address',
    path: '/v1/investors',
    body: { contact: { address: { street: Array.from({ length: 999 }, () => 'x'.repeat(900)) } } },
    requests: HOSTILE_REQUESTS,
  },
  {
    name: 'top-level array of 999 objects of 99 keys',
    path: '/v1/investors',
    body: Array.from({ length: 999 }, () => manyKeys(99)),
    requests: HOSTILE_REQUESTS,
  },
];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function send(port: number, authorization: string, path: string, text: string): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json' },
    body: text,
  });
  await res.arrayBuffer();
  return res.status;
}

async function main(): Promise<void> {
  const { url, authorization } = await prepareBenchDatabase(DB);
  const server = await startService('bench/hostile-input/servers.ts', [], {
    DATABASE_URL: url,
    // The key's request budget would answer 429 to part of the baseline's requests.
    RATE_LIMIT_BURST: '10000000',
    RATE_LIMIT_PER_SECOND: '10000000',
  });
  const pid = server.child.pid!;
  const loadBefore = loadavg()[0];
  const sent = bodies.map((b) => ({
    ...b,
    text: JSON.stringify(b.body),
    cpuMs: [] as number[],
    statuses: new Set<number>(),
  }));
  try {
    for (const b of sent) {
      // Warm-up: the first request of a route compiles its code paths.
      b.statuses.add(await send(server.port, authorization, b.path, b.text));
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const b of sent) {
        const before = cpuSeconds(pid, pid);
        for (let i = 0; i < b.requests; i++) {
          b.statuses.add(await send(server.port, authorization, b.path, b.text));
        }
        b.cpuMs.push(((cpuSeconds(pid, pid) - before) * 1000) / b.requests);
      }
    }
  } finally {
    await server.stop();
    await dropBenchDatabase(DB);
  }
  const baseline = median(sent[0].cpuMs);
  const rows = sent.map((b) => ({
    body: b.name,
    kib: Math.round(b.text.length / 1024),
    statuses: [...b.statuses].join(','),
    main_thread_cpu_ms_per_request: Number(median(b.cpuMs).toFixed(1)),
    worst_round_ms: Number(Math.max(...b.cpuMs).toFixed(1)),
    ratio_to_baseline: Number((median(b.cpuMs) / baseline).toFixed(1)),
  }));
  console.table(rows);
  const refusedOk = sent.every((b) => [...b.statuses].every((s) => s >= 400 && s < 500));
  const worst = Math.max(...rows.slice(1).map((r) => r.main_thread_cpu_ms_per_request));
  console.log(
    JSON.stringify({
      load_average: [loadBefore, loadavg()[0]].map((l) => Number(l.toFixed(2))),
      worst_hostile_ms: worst,
      target_ms: 50,
      every_answer_4xx: refusedOk,
      met: refusedOk && worst < 50,
    }),
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
