import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeAtFileEnd } from '../support/open-contexts';
import { basic, isRemote, TestContext, TestCredentials } from '../support/app';

export interface Delivery {
  headers: IncomingHttpHeaders;
  body: string;
  json: { id: string; event: string; timestamp: string; livemode: boolean; data: Record<string, any> };
}

/** Whose webhook sink receives the deliveries in remote mode (a sink belongs to a tenant's test mode). */
export interface SinkOwner {
  ctx: TestContext;
  creds: TestCredentials;
}

/**
 * A partner's webhook endpoint answering 200 to every POST: a real HTTP server on a loopback port
 * with the in-process app, or the sandbox's webhook sink (POST /v1/test_helpers/webhook-sinks)
 * against a deployed sandbox, whose recorded requests are read back through the API.
 */
export class WebhookReceiver {
  readonly deliveries: Delivery[] = [];
  /** Where the receiver listens, once started (what start returned). */
  url = '';
  private server: Server | undefined;
  private forget: (() => void) | undefined;
  private sink: { id: string; owner: SinkOwner; after: number } | undefined;

  async start(owner?: SinkOwner): Promise<string> {
    if (isRemote) {
      if (!owner) {
        throw new Error(
          'WebhookReceiver.start needs the tenant (ctx, creds) whose webhook sink it uses remotely.',
        );
      }
      const res = await owner.ctx
        .http()
        .post('/v1/test_helpers/webhook-sinks')
        .set('Authorization', basic(owner.creds))
        .send({});
      if (res.status !== 201) {
        throw new Error(`POST /v1/test_helpers/webhook-sinks answered ${res.status}: ${res.text}`);
      }
      this.sink = { id: res.body.id, owner, after: 0 };
      this.url = res.body.url as string;
      return this.url;
    }
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
    this.forget = closeAtFileEnd(() => this.stop());
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/webhooks`;
    return this.url;
  }

  /** Remote mode: pulls what the sink received since the last call into `deliveries`. */
  async refresh(): Promise<void> {
    if (!this.sink) {
      return;
    }
    for (;;) {
      const res = await this.sink.owner.ctx
        .http()
        .get(`/v1/test_helpers/webhook-sinks/${this.sink.id}/requests`)
        .query({ after: this.sink.after })
        .set('Authorization', basic(this.sink.owner.creds));
      if (res.status !== 200) {
        throw new Error(`Reading webhook sink ${this.sink.id} answered ${res.status}: ${res.text}`);
      }
      for (const r of res.body.data as Array<{
        sequence: number;
        headers: IncomingHttpHeaders;
        body: string;
      }>) {
        this.deliveries.push({
          headers: r.headers,
          body: r.body,
          json: JSON.parse(r.body) as Delivery['json'],
        });
        this.sink.after = r.sequence;
      }
      if (!res.body.has_more) {
        return;
      }
    }
  }

  /** Waits until deliveries of these event ids have all arrived. */
  async waitFor(eventIds: string[], timeoutMs = 10_000): Promise<Delivery[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      await this.refresh();
      const got = eventIds.map((id) => this.deliveries.find((d) => d.json.id === id));
      if (got.every(Boolean)) {
        return got as Delivery[];
      }
      if (Date.now() > deadline) {
        throw new Error(`Only ${got.filter(Boolean).length} of ${eventIds.length} events were delivered.`);
      }
      await new Promise((resolve) => setTimeout(resolve, this.sink ? 200 : 50));
    }
  }

  async stop(): Promise<void> {
    this.forget?.();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
