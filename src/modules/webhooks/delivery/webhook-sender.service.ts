import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { isIP } from 'node:net';
import { Agent } from 'undici';
import { AppConfig } from 'src/core/config/app-config.service';
import { WebhookSinkInbox } from 'src/modules/webhook-sinks/webhook-sink-inbox.service';
import { PostExchange } from 'src/modules/webhooks/delivery/post-exchange';
import {
  checkUrlShape,
  isForbiddenAddress,
  publicOnlyLookup,
  UrlRefusedError,
  urlHost,
} from 'src/modules/webhooks/webhook-url-policy';

export interface SendResult {
  /** HTTP status of the answer, or null when none came (refused, timed out, connection error). */
  statusCode: number | null;
  /** Why the attempt failed, in words; null on 2xx. */
  error: string | null;
  durationMs: number;
  /** True when the process was shutting down: the attempt did not really happen. */
  interrupted: boolean;
}

const USER_AGENT = 'InvestmentService-Webhooks/1.0';
/** How often requests in flight are checked against their deadline. */
const SWEEP_MS = 250;
/** Checked urls remembered (deliveries go to the same few receivers over and over). */
const TARGET_CACHE_SIZE = 1000;

/** Where one url's POSTs go, worked out once: its origin, path and client, or why it is refused. */
type Target = { origin: string; path: string; client: Agent } | { refused: string };

/**
 * One HTTP POST to a partner's receiver: keep-alive connections, redirects not followed, the
 * whole exchange bounded by WEBHOOK_TIMEOUT_MS (30 s), and in strict mode the connection goes
 * only to addresses checked as public at connect time.
 *
 * The POSTs go through undici (Node's own project for its HTTP client: `fetch` is built on it)
 * rather than `node:http`: a delivery costs the delivering thread about 40 % less CPU with it
 * (bench/README, "undici"), and it keeps connections alive the same way (idle ones closed before
 * the receiver's announced `Keep-Alive: timeout=`, at most WEBHOOK_CONCURRENCY per origin).
 */
@Injectable()
export class WebhookSender implements OnModuleDestroy {
  private readonly timeoutMs: number;
  /** Connections by origin: strict mode's check every address they connect to. */
  private readonly clients: { strict: Agent; sandbox: Agent };
  /** Requests in flight and when each must have ended (aborted then, and at shutdown). */
  private readonly inFlight = new Map<PostExchange, number>();
  /** Destroys overdue requests: one timer for all of them rather than one per POST. */
  private readonly sweep: NodeJS.Timeout;
  /** Checked urls, strict mode's apart from the sandbox's. */
  private readonly targets = { strict: new Map<string, Target>(), sandbox: new Map<string, Target>() };
  private closing = false;

  constructor(
    config: AppConfig,
    private readonly sinks: WebhookSinkInbox,
  ) {
    this.timeoutMs = config.get('WEBHOOK_TIMEOUT_MS');
    const sockets = Math.max(config.get('WEBHOOK_CONCURRENCY'), 1);
    // undici's own timeouts stay behind the sweep's bound (its connect timeout would be 10 s).
    const options = {
      connections: sockets,
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
    };
    this.clients = {
      strict: new Agent({ ...options, connect: { timeout: this.timeoutMs, lookup: publicOnlyLookup } }),
      sandbox: new Agent({ ...options, connect: { timeout: this.timeoutMs } }),
    };
    this.sweep = setInterval(() => this.destroyOverdue(), Math.min(SWEEP_MS, this.timeoutMs));
    this.sweep.unref();
  }

  async send(
    rawUrl: string,
    headers: Record<string, string>,
    body: string,
    strict: boolean,
  ): Promise<SendResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const sinkId = this.sinks.sinkIdOf(rawUrl);
    if (sinkId) {
      // A sink of this deployment: recorded in process, with the headers the wire would carry.
      const statusCode = await this.sinks.record(sinkId, 'POST', wireHeaders(headers, body), body);
      const ok = statusCode >= 200 && statusCode < 300;
      return {
        statusCode,
        error: ok ? null : `HTTP ${statusCode}`,
        durationMs: elapsed(),
        interrupted: false,
      };
    }
    const target = this.target(rawUrl, strict);
    if ('refused' in target) {
      return { statusCode: null, error: `refused: ${target.refused}`, durationMs: 0, interrupted: false };
    }
    try {
      const statusCode = await this.post(target, headers, body);
      const ok = statusCode >= 200 && statusCode < 300;
      return {
        statusCode,
        error: ok ? null : `HTTP ${statusCode}`,
        durationMs: elapsed(),
        interrupted: false,
      };
    } catch (err) {
      return {
        statusCode: null,
        error: describe(err, this.timeoutMs),
        durationMs: elapsed(),
        interrupted: this.closing,
      };
    }
  }

  /** The url's shape and literal address checked, and its request options, once per url and mode. */
  private target(rawUrl: string, strict: boolean): Target {
    const targets = strict ? this.targets.strict : this.targets.sandbox;
    let target = targets.get(rawUrl);
    if (!target) {
      try {
        const url = checkUrlShape(rawUrl, strict);
        const host = urlHost(url);
        if (strict && isIP(host) && isForbiddenAddress(host)) {
          throw new UrlRefusedError(
            `url must not point to a private, loopback or link-local address (${host}).`,
          );
        }
        target = {
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          client: strict ? this.clients.strict : this.clients.sandbox,
        };
      } catch (err) {
        target = { refused: (err as Error).message };
      }
      if (targets.size >= TARGET_CACHE_SIZE) {
        targets.clear();
      }
      targets.set(rawUrl, target);
    }
    return target;
  }

  private async post(
    target: { origin: string; path: string; client: Agent },
    headers: Record<string, string>,
    body: string,
  ): Promise<number> {
    if (this.closing) {
      throw new ShutdownError();
    }
    const exchange = new PostExchange();
    this.inFlight.set(exchange, Date.now() + this.timeoutMs);
    try {
      target.client.dispatch(
        {
          origin: target.origin,
          path: target.path,
          method: 'POST',
          headers: wireHeaders(headers, body),
          body,
        },
        exchange,
      );
      return await exchange.done;
    } finally {
      this.inFlight.delete(exchange);
    }
  }

  /** Requests past WEBHOOK_TIMEOUT_MS fail as timed out (found within SWEEP_MS of their deadline). */
  private destroyOverdue(): void {
    const now = Date.now();
    for (const [exchange, deadline] of this.inFlight) {
      if (deadline <= now) {
        exchange.fail(new TimeoutError());
      }
    }
  }

  /** Shutdown: in-flight requests stop at once; their jobs run again after a restart. */
  abortAll(): void {
    this.closing = true;
    for (const exchange of this.inFlight.keys()) {
      exchange.fail(new ShutdownError());
    }
  }

  onModuleDestroy(): void {
    clearInterval(this.sweep);
    this.abortAll();
    void this.clients.strict.destroy().catch(() => undefined);
    void this.clients.sandbox.destroy().catch(() => undefined);
  }
}

/** The headers a POST carries on the wire: the signature's and the body's own. */
function wireHeaders(headers: Record<string, string>, body: string): Record<string, string> {
  return {
    ...headers,
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    'user-agent': USER_AGENT,
  };
}

class TimeoutError extends Error {}
class ShutdownError extends Error {
  override message = 'shutting down';
}

/** undici's own timeouts (connect, headers, body), set to the same bound as the sweep's. */
const CLIENT_TIMEOUTS = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

function describe(err: unknown, timeoutMs: number): string {
  if (err instanceof TimeoutError || CLIENT_TIMEOUTS.has((err as NodeJS.ErrnoException).code ?? '')) {
    return `timeout: no answer within ${timeoutMs} ms`;
  }
  if (err instanceof UrlRefusedError) {
    return `refused: ${err.message}`;
  }
  const e = err as NodeJS.ErrnoException;
  if (e.code === 'EADDRREFUSED') {
    return `refused: ${e.message}`;
  }
  return `connection error: ${e.code ?? e.name ?? 'error'}${e.message ? ` (${e.message})` : ''}`;
}
