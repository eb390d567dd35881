import { createServer, IncomingHttpHeaders, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeAtFileEnd } from '../../support/open-contexts';

/** Requests held unanswered now, and the most at once. */
export interface InFlightGauge {
  now: number;
  max: number;
}

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/**
 * How the receiver answers one request: a status, a status after a pause, `hang` (never answers),
 * `stall-body` (sends 200 and the start of a body, never the rest) or a 302 to another url.
 */
export type Answer =
  number | { status: number; afterMs: number } | 'hang' | 'stall-body' | { redirectTo: string };

/**
 * A real HTTP receiver on a loopback port, started by a test. Records every request (raw body
 * and headers, for signature checks) and answers as the test says.
 */
export class Receiver {
  readonly requests: ReceivedRequest[] = [];
  private answer: (req: ReceivedRequest) => Answer = () => 200;
  private readonly hanging = new Set<ServerResponse>();
  private server: Server | undefined;
  private forget: (() => void) | undefined;
  private waiters: Array<() => void> = [];
  port = 0;
  /** TCP connections accepted so far (kept-alive ones carry several requests). */
  connections = 0;

  /**
   * `gauge` counts the requests held unanswered (and the most at once) across every receiver
   * given the same one: deliveries to several origins, which no single HTTP agent pool bounds.
   */
  constructor(readonly gauge: InFlightGauge = { now: 0, max: 0 }) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks`;
  }

  /** Sets how the following requests are answered. */
  answerWith(answer: Answer | ((req: ReceivedRequest) => Answer)): void {
    this.answer = typeof answer === 'function' ? answer : () => answer;
  }

  async start(): Promise<this> {
    return this.startOn(0);
  }

  /** Listens on this port (0: any free one). */
  async startOn(port: number): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const received: ReceivedRequest = {
          method: req.method ?? '',
          path: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          at: Date.now(),
        };
        this.requests.push(received);
        const answer = this.answer(received);
        this.waiters.forEach((w) => w());
        if (answer === 'hang' || answer === 'stall-body') {
          this.hanging.add(res);
          if (answer === 'stall-body') {
            res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '100' }).write('o');
          }
          return;
        }
        if (typeof answer === 'object' && 'redirectTo' in answer) {
          res.writeHead(302, { location: answer.redirectTo }).end();
          return;
        }
        this.gauge.max = Math.max(this.gauge.max, ++this.gauge.now);
        const respond = (status: number) => {
          this.gauge.now--;
          res.writeHead(status, { 'content-type': 'text/plain' }).end('ok');
        };
        if (typeof answer === 'number') {
          respond(answer);
        } else {
          setTimeout(() => respond(answer.status), answer.afterMs);
        }
      });
    });
    this.server.on('connection', () => this.connections++);
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.forget = closeAtFileEnd(() => this.stop());
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  /** Requests whose JSON body has this event id. */
  forEvent(eventId: string): ReceivedRequest[] {
    return this.requests.filter((r) => (JSON.parse(r.body) as { id: string }).id === eventId);
  }

  /** Resolves once `predicate` holds for the recorded requests; fails after `timeoutMs`. */
  async waitUntil(predicate: (requests: ReceivedRequest[]) => boolean, timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this.requests)) {
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new Error(
          `Receiver: condition not met within ${timeoutMs} ms (${this.requests.length} requests)`,
        );
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 100));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
      this.waiters = [];
    }
  }

  waitForCount(n: number, timeoutMs = 5000): Promise<void> {
    return this.waitUntil((r) => r.length >= n, timeoutMs);
  }

  async stop(): Promise<void> {
    this.forget?.();
    for (const res of this.hanging) {
      res.destroy();
    }
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
