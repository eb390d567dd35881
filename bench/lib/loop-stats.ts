import { appendFileSync } from 'node:fs';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';

/**
 * Where a server's latency tail comes from: once a second, one JSON line appended to `file` with the
 * event loop's delay in that second (p99 and max, ms) and the garbage collections (count, total and
 * longest pause, by kind). A stall that sets a bench's p99 shows up here as a long loop delay with
 * or without a long GC pause; neither means the process was waiting for a CPU.
 */
export function recordLoopStats(file: string): void {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  let gc = { count: 0, ms: 0, maxMs: 0, kinds: {} as Record<string, number> };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = String((entry as { detail?: { kind?: number } }).detail?.kind ?? 'gc');
      gc.count++;
      gc.ms += entry.duration;
      gc.maxMs = Math.max(gc.maxMs, entry.duration);
      gc.kinds[kind] = (gc.kinds[kind] ?? 0) + entry.duration;
    }
  }).observe({ entryTypes: ['gc'] });
  const ms = (ns: number) => Number((ns / 1e6).toFixed(1));
  setInterval(() => {
    const line = {
      t: new Date().toISOString().slice(11, 19),
      loopP99: ms(delay.percentile(99)),
      loopMax: ms(delay.max),
      gcCount: gc.count,
      gcMs: Number(gc.ms.toFixed(1)),
      gcMaxMs: Number(gc.maxMs.toFixed(1)),
      gcKinds: Object.fromEntries(Object.entries(gc.kinds).map(([k, v]) => [k, Number(v.toFixed(1))])),
      heapMb: Math.round(process.memoryUsage().heapUsed / 1e6),
    };
    appendFileSync(file, `${JSON.stringify(line)}\n`);
    delay.reset();
    gc = { count: 0, ms: 0, maxMs: 0, kinds: {} };
  }, 1000).unref();
}
