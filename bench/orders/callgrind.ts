import { randomBytes } from 'node:crypto';
import { fundedInvestors, RESTING_BUY } from 'bench/lib/funded-investors';
import { startUnderCallgrind } from 'bench/lib/callgrind';
import { runLoad } from 'bench/lib/load';

/**
 * `BENCH_PART=callgrind`: main-thread instructions per resting placement of the service under
 * valgrind (BENCH_BUILD_DIR, see bench/lib/callgrind.ts), after a warm-up, over
 * BENCH_CALLGRIND_REQUESTS placements. Steadier than CPU time on a shared machine, so two builds
 * of the service can be compared (run once with each BENCH_BUILD_DIR); the rate ratios stay the
 * figures the targets are set on.
 */
export async function placementInstructions(
  url: string,
  authorization: string,
  appEnv: Record<string, string>,
): Promise<Record<string, unknown>> {
  const total = Number(process.env.BENCH_CALLGRIND_REQUESTS ?? 400);
  const warmup = Number(process.env.BENCH_CALLGRIND_WARMUP ?? 1500);
  const server = await startUnderCallgrind('bench/orders/servers.ts', ['app'], {
    ...appEnv,
    DATABASE_URL: url,
  });
  try {
    const investors = await fundedInvestors(server.port, authorization, 4);
    const run = randomBytes(4).toString('hex');
    const load = (label: string, count: number) =>
      runLoad({
        port: server.port,
        path: investors.map((i) => `/v1/investors/${i.investorId}/orders`),
        method: 'POST',
        headers: (i) => ({ authorization, 'idempotency-key': `cg-${run}-${label}-${i}` }),
        body: () => RESTING_BUY,
        total: count,
        concurrency: 4,
      });
    await load('warm', warmup);
    server.zero();
    const measured = await load('measured', total);
    if (measured.statuses[201] !== total) {
      throw new Error(`placements did not all answer 201: ${JSON.stringify(measured.statuses)}`);
    }
    const { main, all } = server.instructions();
    return {
      build: process.env.BENCH_BUILD_DIR,
      requests: total,
      warmup,
      // The main thread runs every request; JIT and GC helper threads vary with timing under
      // valgrind, so the main-thread figure is the one to compare.
      main_thread_instructions_per_request: Math.round(main / total),
      all_threads_instructions_per_request: Math.round(all / total),
    };
  } finally {
    await server.stop();
  }
}
