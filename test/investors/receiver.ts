import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Delivery {
  headers: IncomingHttpHeaders;
  body: string;
  json: { id: string; event: string; timestamp: string; livemode: boolean; data: Record<string, any> };
}

/** A partner's webhook endpoint: a real HTTP server on a loopback port, answering 200 to every POST. */
export class WebhookReceiver {
  readonly deliveries: Delivery[] = [];
  private server: Server | undefined;

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        this.deliveries.push({ headers: req.headers, body, json: JSON.parse(body) as Delivery['json'] });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/webhooks`;
  }

  /** Waits until deliveries of these event ids have all arrived. */
  async waitFor(eventIds: string[], timeoutMs = 10_000): Promise<Delivery[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const got = eventIds.map((id) => this.deliveries.find((d) => d.json.id === id));
      if (got.every(Boolean)) {
        return got as Delivery[];
      }
      if (Date.now() > deadline) {
        throw new Error(`Only ${got.filter(Boolean).length} of ${eventIds.length} events were delivered.`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
