import { basic, createTestContext, isRemote, listeningUrl, TestContext, useTenant } from '../support/app';
import { madeBeforeAll } from '../support/made-before-all';
import { adminToken } from '../support/remote';
import { createInvestor, investorKey, PDF, upload, useTempStorage } from '../investors/fixtures';
import { FuzzCase, fuzzCases, FUZZ_SEED, jsonOperations, loadCommittedDocument } from './fuzz-inputs';

/**
 * Every operation of the committed OpenAPI document gets hostile path ids, query parameters and
 * bodies with valid credentials of a fresh tenant (all add-ons on). No answer may be a 5xx or a
 * dropped connection, and every answer must match the document (the check ctx.http() runs).
 */
describe('Fuzz: hostile input on every documented operation', () => {
  useTempStorage();
  const ctx = madeBeforeAll('The test context', () => bootWithWideRateLimit());
  const tenant = useTenant(ctx, { products: ['market_data', 'cash_management'], fixedIncome: true });
  const ids: Record<string, string> = { code: 'XNYS', symbol: 'AAPL', id: 'AAPL' };
  let baseUrl: string;
  beforeAll(() => listenAndMakeIds());

  it('credentials with control characters are refused (401 or 429) on every operation, never a 5xx', async () => {
    const operations = jsonOperations(loadCommittedDocument());
    const controls = ['\u0000', '\u0001', '\u001b', '\u007f', '\n'];
    const failures: string[] = [];
    let refused = 0;
    for (const [i, op] of operations.entries()) {
      const url = op.template.replace(/\{([^}]+)\}/g, (_m, name: string) =>
        encodeURIComponent(ids[name] ?? 'x'),
      );
      const control = controls[i % controls.length];
      const user = `${tenant.test.publicKey}${control}`;
      const res = await ctx
        .http()
        [op.method as 'get'](url)
        .set('Authorization', `Basic ${Buffer.from(`${user}:${tenant.test.secret}`).toString('base64')}`);
      refused += res.status === 401 || res.status === 429 ? 1 : 0;
      if (res.status >= 500) {
        failures.push(`${op.method.toUpperCase()} ${url} → ${res.status} ${JSON.stringify(res.body)}`);
      }
    }
    expect(failures).toEqual([]);
    // Every authenticated operation refuses them (the few public ones answer as they always do).
    expect(refused).toBeGreaterThan(operations.length * 0.9);
  });

  // Over the network to a deployed sandbox (sharing the machine with the run) the same requests take longer.
  const fuzzBudgetMs = isRemote ? 300_000 : 120_000;
  it(
    'answers every hostile request with a documented 2xx/4xx, never a 5xx',
    async () => {
      const document = loadCommittedDocument();
      const operations = jsonOperations(document);
      expect(operations.length).toBeGreaterThan(40);
      const cases = operations.flatMap((op, i) => fuzzCases(document, op, ids, FUZZ_SEED + i));
      const failures: string[] = [];
      let next = 0;
      const worker = async () => {
        while (next < cases.length) {
          const c = cases[next];
          next += 1;
          try {
            const res = await send(c);
            if (res.status >= 500) {
              failures.push(
                `${c.method} ${c.url.slice(0, 200)} [${c.input}] → ${res.status} ${JSON.stringify(res.body)}`,
              );
            }
          } catch (err) {
            // A dropped connection, or a response that does not match the document.
            failures.push(
              `${c.method} ${c.url.slice(0, 200)} [${c.input}] → ${(err as Error).message.slice(0, 1500)}`,
            );
          }
        }
      };
      await Promise.all(Array.from({ length: 6 }, worker));
      process.stdout.write(
        `fuzz: ${cases.length} requests over ${operations.length} operations (seed ${FUZZ_SEED})\n`,
      );
      expect({ failures: failures.length, first: failures.slice(0, 25) }).toEqual({ failures: 0, first: [] });
    },
    fuzzBudgetMs,
  );

  /**
   * The app on a port (baseUrl, for the stream routes), and what the path ids name: an investor, its
   * key and document, a webhook endpoint, an event and a tenant of its own.
   */
  async function listenAndMakeIds(): Promise<void> {
    baseUrl = await listeningUrl(ctx);
    const investor = await createInvestor(ctx, tenant.test);
    ids.investor_id = investor.id as string;
    ids.account_id = investor.account_id as string;
    ids.api_key_id = (await investorKey(ctx, tenant.test, ids.investor_id)).id;
    const doc = await upload(ctx, tenant.test, ids.investor_id, 'passport', {
      bytes: PDF,
      name: 'passport.pdf',
      contentType: 'application/pdf',
    });
    ids.document_id = doc.body.id as string;
    const webhook = await ctx
      .http()
      .post('/v1/webhooks')
      .set('Authorization', basic(tenant.test))
      .send({ name: 'fuzz', url: 'http://127.0.0.1:9/hook', eventTypeNames: ['*'] });
    ids.webhook_id = webhook.body.id as string;
    const events = await ctx.http().get('/v1/events').set('Authorization', basic(tenant.test));
    ids.event_id = events.body.data[0].id as string;
    // The sandbox admin API's per-tenant settings routes get the admin token, on a tenant of their
    // own (the tenant list, create and delete routes keep the partner key and answer 401).
    ids.tenant_id = (await ctx.createTenant()).tenantId;
  }

  const SANDBOX_TENANT_SETTINGS = /^\/v1\/sandbox\/tenants\/[^/?]+\/[a-z-]+/;
  const credentialsFor = (url: string) =>
    SANDBOX_TENANT_SETTINGS.test(url) ? `Bearer ${adminToken()}` : basic(tenant.test);

  /** A stream route over a real connection: an accepted request is an endless stream, closed once it starts. */
  async function sendToStream(c: FuzzCase): Promise<{ status: number; body: unknown }> {
    const hangUp = new AbortController();
    const res = await fetch(`${baseUrl}${c.url}`, {
      headers: { Authorization: credentialsFor(c.url) },
      signal: hangUp.signal,
    });
    if (res.status === 200 && res.headers.get('content-type')?.startsWith('text/event-stream')) {
      hangUp.abort();
      return { status: res.status, body: undefined };
    }
    const text = await res.text();
    const body = JSON.parse(text) as { error?: { code?: string } };
    if (res.status >= 400 && typeof body.error?.code !== 'string') {
      throw new Error(`not an error envelope: ${text.slice(0, 300)}`);
    }
    return { status: res.status, body };
  }

  async function send(c: FuzzCase): Promise<{ status: number; body: unknown }> {
    if (c.stream) {
      return sendToStream(c);
    }
    for (let attempt = 0; ; attempt += 1) {
      let req = ctx
        .http()
        [c.method.toLowerCase() as 'get'](c.url)
        .set('Authorization', credentialsFor(c.url));
      if (c.body !== undefined) {
        req = req.set('Content-Type', c.contentType ?? 'application/json').send(c.body);
      }
      const res = await req;
      const retryAfter = Number(res.headers['retry-after']);
      if (res.status !== 429 || attempt >= 5 || !retryAfter) {
        return { status: res.status, body: res.body };
      }
      await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
    }
  }
});

/**
 * This file's app. The fuzz sends thousands of requests on one key: a wide rate limit for this file's
 * app (a deployed sandbox keeps its own; 429s are then waited out in send).
 */
async function bootWithWideRateLimit(): Promise<TestContext> {
  process.env.RATE_LIMIT_BURST = '1000000';
  process.env.RATE_LIMIT_PER_SECOND = '1000000';
  try {
    return await createTestContext();
  } finally {
    delete process.env.RATE_LIMIT_BURST;
    delete process.env.RATE_LIMIT_PER_SECOND;
  }
}
