import { Injectable, OnModuleDestroy } from '@nestjs/common';
import {
  Agent as HttpAgent,
  ClientRequest,
  request as httpRequest,
  IncomingMessage,
  RequestOptions,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { AppConfig } from 'src/core/config/app-config.service';
import { WebhookSinkInbox } from 'src/modules/webhook-sinks/webhook-sink-inbox.service';
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

/** Where one url's POSTs go, worked out once: the request options, or why the url is refused. */
type Target = { options: RequestOptions; https: boolean } | { refused: string };

/**
 * One HTTP POST to a partner's receiver: keep-alive connections, redirects not followed, the
 * whole exchange bounded by WEBHOOK_TIMEOUT_MS (30 s), and in strict mode the connection goes
 * only to addresses checked as public at connect time.
 */
@Injectable()
export class WebhookSender implements OnModuleDestroy {
  private readonly timeoutMs: number;
  private readonly httpAgent: HttpAgent;
  private readonly httpsAgent: HttpsAgent;
  /** Requests in flight and when each must have ended (destroyed then, and at shutdown). */
  private readonly inFlight = new Map<ClientRequest, number>();
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
    this.httpAgent = new HttpAgent({ keepAlive: true, maxSockets: sockets, timeout: this.timeoutMs });
    this.httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets: sockets, timeout: this.timeoutMs });
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
        const https = url.protocol === 'https:';
        target = {
          https,
          options: {
            protocol: url.protocol,
            hostname: host,
            port: url.port || undefined,
            path: `${url.pathname}${url.search}`,
            method: 'POST',
            agent: https ? this.httpsAgent : this.httpAgent,
            ...(strict ? { lookup: publicOnlyLookup as never } : {}),
          },
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

  private post(
    target: { options: RequestOptions; https: boolean },
    headers: Record<string, string>,
    body: string,
  ): Promise<number> {
    if (this.closing) {
      return Promise.reject(new ShutdownError());
    }
    return new Promise<number>((resolve, reject) => {
      const req = (target.https ? httpsRequest : httpRequest)(target.options, (res: IncomingMessage) => {
        // The answer's body is not used; drain it so the connection can be reused.
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      });
      for (const name in headers) {
        req.setHeader(name, headers[name]);
      }
      req.setHeader('content-type', 'application/json');
      req.setHeader('content-length', Buffer.byteLength(body));
      req.setHeader('user-agent', USER_AGENT);
      this.inFlight.set(req, Date.now() + this.timeoutMs);
      req.on('close', () => this.inFlight.delete(req));
      req.on('error', reject);
      req.end(body);
    });
  }

  /** Requests past WEBHOOK_TIMEOUT_MS fail as timed out (found within SWEEP_MS of their deadline). */
  private destroyOverdue(): void {
    const now = Date.now();
    for (const [req, deadline] of this.inFlight) {
      if (deadline <= now) {
        req.destroy(new TimeoutError());
      }
    }
  }

  /** Shutdown: in-flight requests stop at once; their jobs run again after a restart. */
  abortAll(): void {
    this.closing = true;
    for (const req of this.inFlight.keys()) {
      req.destroy(new ShutdownError());
    }
  }

  onModuleDestroy(): void {
    clearInterval(this.sweep);
    this.abortAll();
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
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

function describe(err: unknown, timeoutMs: number): string {
  if (err instanceof TimeoutError) {
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
