import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { cpuSeconds } from 'bench/lib/server-process';
import { signPayload } from 'src/modules/webhooks/webhook-secrets';

/**
 * The baseline of bench/webhooks: a plain node process doing only what a delivery must do on the
 * wire. For each event (its payload serialised once), for each endpoint: sign the Standard
 * Webhooks message with the endpoint's secret (the service's own signing function) and POST it
 * with the service's headers over keep-alive connections, `concurrency` requests in flight, to
 * the same receiver. No queue, no database, nothing recorded. Reads its plan from the JSON file
 * named by its argument and prints one JSON line with its figures.
 */
interface Plan {
  port: number;
  concurrency: number;
  endpoints: Array<{ path: string; secret: string }>;
  events: number;
  /** Deliveries sent (and not measured) first, so the JIT is warm as the service's is. */
  warmup: number;
  idPrefix: string;
}

const USER_AGENT = 'InvestmentService-Webhooks/1.0';

function payload(id: string, n: number): string {
  return JSON.stringify({
    id,
    object: 'event',
    event: 'order.filled',
    timestamp: new Date().toISOString(),
    livemode: false,
    data: { id: `ord_${n}`, symbol: 'AAPL', side: 'buy', status: 'filled', filled_quantity: '1' },
  });
}

async function send(
  plan: Plan,
  agent: Agent,
  events: number,
  idPrefix: string,
): Promise<Record<number, number>> {
  const statuses: Record<number, number> = {};
  const total = events * plan.endpoints.length;
  const bodies: string[] = [];
  let next = 0;
  const post = (i: number) =>
    new Promise<void>((resolve, reject) => {
      const n = Math.floor(i / plan.endpoints.length);
      const endpoint = plan.endpoints[i % plan.endpoints.length];
      const id = `${idPrefix}${n}`;
      const body = (bodies[n] ??= payload(id, n));
      const timestamp = Math.floor(Date.now() / 1000);
      const req = request(
        {
          host: '127.0.0.1',
          port: plan.port,
          path: endpoint.path,
          method: 'POST',
          agent,
          headers: {
            'webhook-id': id,
            'webhook-timestamp': String(timestamp),
            'webhook-signature': signPayload(endpoint.secret, id, timestamp, body),
            'content-type': 'application/json',
            'content-length': String(Buffer.byteLength(body)),
            'user-agent': USER_AGENT,
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            statuses[res.statusCode ?? 0] = (statuses[res.statusCode ?? 0] ?? 0) + 1;
            resolve();
          });
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  const worker = async () => {
    while (next < total) {
      await post(next++);
    }
  };
  await Promise.all(Array.from({ length: plan.concurrency }, worker));
  return statuses;
}

async function main(): Promise<void> {
  const plan = JSON.parse(readFileSync(process.argv[2], 'utf8')) as Plan;
  const agent = new Agent({ keepAlive: true, maxSockets: plan.concurrency });
  const warmupEvents = Math.ceil(plan.warmup / plan.endpoints.length);
  await send(plan, agent, warmupEvents, `${plan.idPrefix}warm_`);
  const cpu = process.cpuUsage();
  const mainThread = cpuSeconds(process.pid, process.pid);
  const started = process.hrtime.bigint();
  const statuses = await send(plan, agent, plan.events, plan.idPrefix);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const used = process.cpuUsage(cpu);
  const mainThreadUsed = cpuSeconds(process.pid, process.pid) - mainThread;
  agent.destroy();
  const deliveries = plan.events * plan.endpoints.length;
  process.stdout.write(
    `${JSON.stringify({
      deliveries,
      warmup_deliveries: warmupEvents * plan.endpoints.length,
      seconds,
      deliveries_per_second: deliveries / seconds,
      cpu_us_per_delivery: (used.user + used.system) / deliveries,
      system_cpu_us_per_delivery: used.system / deliveries,
      main_thread_cpu_us_per_delivery: (mainThreadUsed * 1e6) / deliveries,
      statuses,
    })}\n`,
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
