import type { INestApplication } from '@nestjs/common';
import { writeFileSync } from 'node:fs';
import { DataSource } from 'typeorm';
import { runScript } from 'bench/lib/server-process';
import type { Costs, CostMeter } from 'bench/webhooks/costs';
import type { EventsService } from 'src/core/events/events.service';
import type { TenancyService } from 'src/core/tenancy/tenancy.service';

/** A tenant of the bench with its endpoints, all subscribed to `order.*` on the one receiver. */
export interface BenchTenant {
  tenantId: string;
  endpoints: Array<{ id: string; path: string; secret: string }>;
}

export interface Figures {
  endpoints: number;
  events: number;
  deliveries: number;
  seconds: number;
  /** Time the emitters took to commit every event (the delivery side runs meanwhile). */
  emit_seconds: number;
  events_per_second: number;
  deliveries_per_second: number;
  /** Commit of the emitting transaction → the receiver's 2xx to the event's last endpoint. */
  latency_ms: { p50: number; p90: number; p99: number; max: number };
  /** Set when events were emitted at this pace (one transaction each) rather than as fast as possible. */
  paced_events_per_second?: number;
  costs_per_delivery: Costs;
}

export interface BareFigures {
  deliveries: number;
  seconds: number;
  deliveries_per_second: number;
  cpu_us_per_delivery: number;
  system_cpu_us_per_delivery: number;
  main_thread_cpu_us_per_delivery: number;
  receiver_cpu_us_per_delivery: number;
}

function percentile(sorted: number[], p: number): number {
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0);
}

/** The bench's services, created once. */
export class Scenarios {
  private readonly dataSource: DataSource;
  private round = 0;

  constructor(
    private readonly app: INestApplication,
    private readonly apiUrl: string,
    private readonly receiverUrl: string,
    private readonly receiverPort: number,
    private readonly meter: CostMeter,
    private readonly tenancy: TenancyService,
    private readonly events: EventsService,
    private readonly emitters: number,
  ) {
    this.dataSource = app.get(DataSource);
  }

  async tenant(endpointCount: number): Promise<BenchTenant> {
    const { tenant, test } = await this.tenancy.createTenant(`Bench ${endpointCount}`, [], false);
    const authorization = `Basic ${Buffer.from(`${test.key.public_key}:${test.secret}`).toString('base64')}`;
    const endpoints: BenchTenant['endpoints'] = [];
    for (let i = 0; i < endpointCount; i++) {
      const path = `/hooks/${endpointCount}/${i}`;
      const res = await fetch(`${this.apiUrl}/v1/webhooks`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body: JSON.stringify({
          name: `bench ${i}`,
          url: `${this.receiverUrl}${path}`,
          eventTypeNames: ['order.*'],
        }),
      });
      if (res.status !== 201) {
        throw new Error(`registering an endpoint answered ${res.status}: ${await res.text()}`);
      }
      const body = (await res.json()) as { id: string; secret: string };
      endpoints.push({ id: body.id, path, secret: body.secret });
    }
    return { tenantId: tenant.id, endpoints };
  }

  /** Commits `total` events (8 emitters back to back, or one every 1/pace s) and waits for every delivery. */
  async service(bench: BenchTenant, total: number, pacePerSecond?: number): Promise<Figures> {
    await fetch(`${this.receiverUrl}/arrivals`); // clear
    const committedAt = new Map<string, number>();
    const emitOne = async (n: number) => {
      const event = await this.dataSource.transaction((manager) =>
        this.events.emit(manager, {
          tenantId: bench.tenantId,
          livemode: false,
          event: 'order.filled',
          data: { id: `ord_${n}`, symbol: 'AAPL', side: 'buy', status: 'filled', filled_quantity: '1' },
        }),
      );
      committedAt.set(event.id, Date.now());
    };
    let next = 0;
    const emitter = async () => {
      while (next < total) {
        await emitOne(next++);
      }
    };
    /** One transaction every 1/pace s, each started on time whether or not the previous one is done. */
    const paced = async (pace: number) => {
      const pending: Array<Promise<void>> = [];
      for (let n = 0; n < total; n++) {
        const wait = started + (n * 1000) / pace - Date.now();
        if (wait > 0) {
          await new Promise((r) => setTimeout(r, wait));
        }
        pending.push(emitOne(n));
      }
      await Promise.all(pending);
    };
    const stopMeter = await this.meter.start();
    const started = Date.now();
    await (pacePerSecond
      ? paced(pacePerSecond)
      : Promise.all(Array.from({ length: this.emitters }, emitter)));
    const emitSeconds = (Date.now() - started) / 1000;
    const expected = total * bench.endpoints.length;
    await this.waitForArrivals(expected);
    const deliveries = expected;
    const costs = await stopMeter(deliveries);
    const arrivals = (await (await fetch(`${this.receiverUrl}/arrivals`)).json()) as Array<[string, number]>;
    // An event is delivered when its last endpoint has it.
    const done = new Map<string, number>();
    for (const [id, at] of arrivals) {
      if (committedAt.has(id)) {
        done.set(id, Math.max(done.get(id) ?? 0, at));
      }
    }
    const latencies = [...done.entries()].map(([id, at]) => at - committedAt.get(id)!).sort((a, b) => a - b);
    const seconds = (Math.max(...done.values()) - started) / 1000;
    return {
      endpoints: bench.endpoints.length,
      events: total,
      deliveries,
      seconds: Number(seconds.toFixed(2)),
      emit_seconds: Number(emitSeconds.toFixed(2)),
      events_per_second: Math.round(total / seconds),
      deliveries_per_second: Math.round(deliveries / seconds),
      latency_ms: {
        p50: percentile(latencies, 0.5),
        p90: percentile(latencies, 0.9),
        p99: percentile(latencies, 0.99),
        max: percentile(latencies, 1),
      },
      ...(pacePerSecond ? { paced_events_per_second: pacePerSecond } : {}),
      costs_per_delivery: costs,
    };
  }

  /** The bare sender's run of the same deliveries to the same receiver at the same concurrency. */
  async bare(bench: BenchTenant, total: number, concurrency: number): Promise<BareFigures> {
    const plan = `/tmp/bench-webhooks-bare-${process.pid}.json`;
    writeFileSync(
      plan,
      JSON.stringify({
        port: this.receiverPort,
        concurrency,
        endpoints: bench.endpoints.map(({ path, secret }) => ({ path, secret })),
        events: total,
        warmup: Number(process.env.BENCH_BARE_WARMUP ?? 2000),
        idPrefix: `evt_bare${++this.round}_`,
      }),
    );
    const receiver = this.meter.receiverCpu();
    const figures = await runScript<BareFigures & { warmup_deliveries: number }>(
      'bench/webhooks/bare-sender.ts',
      [plan],
    );
    const receiverUs = (this.meter.receiverCpu() - receiver) * 1e6;
    await this.waitForArrivals(figures.deliveries + figures.warmup_deliveries);
    await fetch(`${this.receiverUrl}/arrivals`); // clear
    return {
      deliveries: figures.deliveries,
      seconds: Number(figures.seconds.toFixed(2)),
      deliveries_per_second: Math.round(figures.deliveries_per_second),
      cpu_us_per_delivery: Number(figures.cpu_us_per_delivery.toFixed(1)),
      system_cpu_us_per_delivery: Number(figures.system_cpu_us_per_delivery.toFixed(1)),
      main_thread_cpu_us_per_delivery: Number(figures.main_thread_cpu_us_per_delivery.toFixed(1)),
      // The receiver's CPU over the whole bare process, its warm-up included.
      receiver_cpu_us_per_delivery: Number(
        (receiverUs / (figures.deliveries + figures.warmup_deliveries)).toFixed(1),
      ),
    };
  }

  private async waitForArrivals(expected: number): Promise<void> {
    const deadline = Date.now() + 10 * 60_000;
    for (;;) {
      const count = Number(await (await fetch(`${this.receiverUrl}/count`)).text());
      if (count >= expected) {
        return;
      }
      if (Date.now() > deadline) {
        throw new Error(`only ${count} of ${expected} deliveries arrived`);
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}
