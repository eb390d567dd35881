import request from 'supertest';
import type { Test } from 'supertest';
import type { TestContext } from '../../support/app';
import { clientAs } from '../../support/client';
import { validatingResponses } from '../../support/openapi-validation';

type Agent = ReturnType<typeof request>;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/**
 * A client's own pacing per API key (GCRA): at most `burst` requests at once, then `perSecond`,
 * counted when each request is sent. A partner keeping under its rate limit this way gets no 429.
 */
export class KeyPacer {
  private readonly intervalMs: number;
  private readonly toleranceMs: number;
  private readonly next = new Map<string, number>();

  constructor(perSecond: number, burst: number) {
    this.intervalMs = 1000 / perSecond;
    this.toleranceMs = (burst - 1) * this.intervalMs;
  }

  /** Resolves when a request of `key` may be sent. */
  async take(key: string): Promise<void> {
    const now = Date.now();
    const due = Math.max(this.next.get(key) ?? now, now);
    this.next.set(key, due + this.intervalMs);
    const wait = due - this.toleranceMs - now;
    if (wait > 0) {
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  /** The agent with each request held until its key (its Authorization header) may send it. */
  wrap(agent: Agent): Agent {
    const wrapped = { ...agent } as Record<string, unknown>;
    for (const method of METHODS) {
      wrapped[method] = (...args: unknown[]) => {
        const req = (agent[method] as (...a: unknown[]) => Test)(...args);
        const send = req.then.bind(req);
        // superagent keeps the headers set so far under lower-case names in `_header`.
        const headers = (req as unknown as { _header: Record<string, string | undefined> })._header;
        req.then = ((ok, fail) =>
          this.take(headers.authorization ?? '').then(() => send(ok, fail))) as Test['then'];
        return req;
      };
    }
    return wrapped as unknown as Agent;
  }
}

/**
 * A context whose requests go to these API processes in turn, as behind a round-robin load
 * balancer (one URL: that process alone), each answer checked against the OpenAPI document;
 * paced per key when a KeyPacer is given. The database and tenants stay the context's.
 */
export function contextOver(ctx: TestContext, baseUrls: string[], pacer?: KeyPacer): TestContext {
  let turn = 0;
  const http = () => {
    const agent = validatingResponses(request(baseUrls[turn++ % baseUrls.length]));
    return pacer ? pacer.wrap(agent) : agent;
  };
  return { ...ctx, http, as: (creds) => clientAs(http, creds) };
}
