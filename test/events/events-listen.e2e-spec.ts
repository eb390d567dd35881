import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { forwardEvents } from 'src/cli/event-forwarder';
import { listeningUrl, useTenant, useTestContext } from '../support/app';
import { madeBeforeAll } from '../support/made-before-all';
import { createInvestor } from '../investors/fixtures';

/**
 * `npm run cli -- events:listen --forward-to <url>` (src/cli/event-forwarder.ts): the stream of a
 * sandbox (in process, or E2E_BASE_URL) forwarded to a developer's local URL, signed like webhooks.
 */
describe('events:listen forwards the event stream with Standard Webhooks signatures', () => {
  const ctx = useTestContext();
  let baseUrl: string;
  beforeAll(async () => (baseUrl = await listeningUrl(ctx)));
  const tenant = useTenant(ctx);
  const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
  const local = madeBeforeAll('The local receiver', startLocalReceiver);
  afterAll(() => new Promise((resolve) => local.close(resolve)));

  it('POSTs each event, as GET /v1/events lists it, with a signature its signing secret verifies', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const stop = new AbortController();
    const { port } = local.address() as AddressInfo;
    const running = forwardEvents({
      baseUrl,
      publicKey: tenant.test.publicKey,
      secret: tenant.test.secret,
      forwardTo: `http://127.0.0.1:${port}/hooks`,
      types: ['account.created'],
      signal: stop.signal,
      report: (line) => lines.push(line),
    });
    // The stream is open once the service counts it; give it the moment it takes to connect.
    await new Promise((r) => setTimeout(r, 500));
    const investor = await createInvestor(ctx, tenant.test);
    const deadline = Date.now() + 10_000;
    // Done once the forwarder has read the local answer and reported it (the local server records
    // the delivery before it answers, so `received` alone comes too early to stop).
    while (!lines.some((line) => 'event_id' in line) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    stop.abort();
    await running;

    expect(received).toHaveLength(1);
    const [delivery] = received;
    const signingSecret = lines[0].signing_secret as string;
    expect(lines[0]).toMatchObject({ ready: true, signing_secret: expect.stringMatching(/^whsec_/) });
    const verified = new Webhook(signingSecret).verify(
      delivery.body,
      delivery.headers as Record<string, string>,
    );
    const event = JSON.parse(delivery.body);
    expect(verified).toEqual(event);
    expect(event.data.investor_id).toBe(investor.id);
    expect(delivery.headers['webhook-id']).toBe(event.id);
    expect(event).toEqual((await ctx.as(tenant.test).get(`/v1/events/${event.id}`)).body);
    expect(lines).toContainEqual({ event_id: event.id, event: 'account.created', status: 204 });
    // Another secret does not verify it.
    expect(() =>
      new Webhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw').verify(
        delivery.body,
        delivery.headers as Record<string, string>,
      ),
    ).toThrow();
  });

  /** The developer's local URL: a server noting every request it receives. */
  async function startLocalReceiver(): Promise<Server> {
    const server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return server;
  }
});
