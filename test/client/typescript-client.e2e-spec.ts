import { listeningUrl, useTenant, useTestContext } from '../support/app';
import { investorBody } from '../investors/fixtures';
import { WebhookReceiver } from '../investors/receiver';
import { MONDAY_OPEN } from '../trading/support/trading';
import { fundedAccount, SETTLING_ACCOUNT } from '../wallet/support/wallet';
import { loadClientPackage } from './support/client-package';

/**
 * @investment-service/client (clients/typescript, its built package) against a real sandbox: the
 * in-process app on a loopback port, or the deployment of E2E_BASE_URL. A partner's whole first
 * day: onboard, fund, trade, page through lists, hear order.filled on the stream and by a signed
 * webhook; then the client's own promises (idempotency keys, retries, typed errors, resuming).
 */
describe('TypeScript client package against a sandbox', () => {
  const ctx = useTestContext();
  let baseUrl: string;
  beforeAll(async () => (baseUrl = await listeningUrl(ctx)));
  const tenant = useTenant(ctx);
  let client: any;
  beforeAll(async () => (client = await clientAtMondayOpen()));
  const streams: AbortController[] = [];
  afterEach(() => streams.splice(0).forEach((c) => c.abort()));

  it('onboards, funds and trades; pages orders; hears order.filled on the stream and by a verified webhook', async () => {
    const receiver = new WebhookReceiver();
    const url = await receiver.start({ ctx, creds: tenant.test });
    const hook = await ok('/v1/webhooks', {
      body: { name: 'client', url, eventTypeNames: ['order.filled'] },
    });
    const heard: any[] = [];
    const stop = new AbortController();
    streams.push(stop);
    const streaming = (async () => {
      for await (const event of client.events.stream({ types: ['order.filled'], signal: stop.signal })) {
        heard.push(event);
      }
    })();

    const investor = await ok('/v1/investors', { body: investorBody() });
    const path = { investor_id: investor.id };
    await ok('/v1/test_helpers/investors/{investor_id}/kyc/approve', { params: { path } });
    const bank = await ok('/v1/investors/{investor_id}/funding-sources', {
      params: { path },
      body: {
        type: 'bank_account',
        account_holder_name: 'Ada Obi',
        account_number: SETTLING_ACCOUNT,
        routing_number: '110000000',
        currency: 'USD',
        country: 'US',
      },
    });
    const deposit = await ok('/v1/wallet/accounts/{account_id}/funding', {
      params: { path: { account_id: investor.account_id } },
      body: {
        amount: '5000.00',
        funding_details: {
          funding_type: 'fiat',
          fiat_currency: 'USD',
          bank_account_id: bank.id,
          method: 'ach',
        },
      },
    });
    await ok('/v1/test_helpers/wallet/transactions/{transaction_id}/settle', {
      params: { path: { transaction_id: deposit.transaction_id } },
    });
    await ok('/v1/test_helpers/prices', { body: { symbol: 'AAPL', price: '200.00' } });
    const orders: string[] = [];
    for (let i = 0; i < 3; i++) {
      const order = await ok('/v1/investors/{investor_id}/orders', {
        params: { path },
        body: { symbol: 'AAPL', side: 'buy', type: 'market', time_in_force: 'day', notional: '100' },
      });
      expect(order.status).toBe('filled');
      orders.push(order.id as string);
    }
    // Every POST carried an Idempotency-Key, a different one each.
    expect(posts.every((key) => typeof key === 'string' && key.length > 0)).toBe(true);
    expect(new Set(posts).size).toBe(posts.length);

    // Cursor paging (list envelope, two per page) and offset paging (an array answer).
    const paged: string[] = [];
    for await (const order of client.paginate('/v1/investors/{investor_id}/orders', {
      params: { path, query: { limit: 2 } },
    })) {
      paged.push(order.id);
    }
    expect(paged.sort()).toEqual([...orders].sort());
    const byOffset: string[] = [];
    for await (const order of client.paginate('/v1/trading/accounts/{account_id}/orders', {
      params: { path: { account_id: investor.account_id }, query: { limit: 2 } },
    })) {
      byOffset.push(order.id);
    }
    expect(byOffset.sort()).toEqual([...orders].sort());
    const second = await ok('/v1/wallet/accounts/{account_id}/funding', {
      params: { path: { account_id: investor.account_id } },
      body: {
        amount: '10.00',
        funding_details: {
          funding_type: 'fiat',
          fiat_currency: 'USD',
          bank_account_id: bank.id,
          method: 'ach',
        },
      },
    });
    const transactions: unknown[] = [];
    for await (const txn of client.paginate('/v1/wallet/accounts/{account_id}/transactions', {
      params: { path: { account_id: investor.account_id }, query: { limit: 1 } },
    })) {
      transactions.push(txn);
    }
    expect(transactions).toHaveLength(2);
    expect(JSON.stringify(transactions)).toContain(deposit.transaction_id);
    expect(JSON.stringify(transactions)).toContain(second.transaction_id);

    // The stream and the webhook both carry each order.filled, as GET /v1/events lists it.
    const deadline = Date.now() + 15_000;
    while (heard.filter((e) => orders.includes(e.data.id)).length < 3 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
    stop.abort();
    await streaming;
    const filled = heard.filter((e) => orders.includes(e.data.id));
    expect(filled.map((e) => e.data.id).sort()).toEqual([...orders].sort());
    for (const event of filled) {
      const listed = await client.GET('/v1/events/{event_id}', { params: { path: { event_id: event.id } } });
      expect(event).toEqual(listed.data);
    }
    while (receiver.deliveries.length === 0 && Date.now() < deadline + 15_000) {
      await receiver.refresh();
      await new Promise((r) => setTimeout(r, 200));
    }
    const delivery = receiver.deliveries[0];
    const verified = await sdk.verifyWebhook({
      secret: hook.secret,
      headers: delivery.headers,
      body: delivery.body,
    });
    expect(verified).toEqual(JSON.parse(delivery.body));
    expect(orders).toContain(verified.data.id);
    await expect(
      sdk.verifyWebhook({
        secret: hook.secret,
        headers: delivery.headers,
        body: delivery.body.replace('filled', 'fi11ed'),
      }),
    ).rejects.toBeInstanceOf(sdk.WebhookVerificationError);
    await receiver.stop();
  }, 90_000);

  it('pages a page-token list (cash sweep interest) to its end, as one large page lists it', async () => {
    const { investor } = await fundedAccount(ctx, tenant.test, '10000.00');
    // Six days of the clock: one interest entry per day for the funded account.
    const moved = await client.POST('/v1/test_helpers/clock', { body: { advance_seconds: 6 * 86_400 } });
    expect(moved.response.status).toBe(200);
    const path = '/v1/investors/{investor_id}/cash-sweep/interest';
    const whole = await client.GET(path, {
      params: { path: { investor_id: investor.id }, query: { page_size: 100 } },
    });
    expect(whole.data.next_page_token).toBeNull();
    expect(whole.data.data.length).toBeGreaterThanOrEqual(5);
    const paged: unknown[] = [];
    const requested: string[] = [];
    const tracing = sdk.createClient({
      baseUrl,
      publicKey: tenant.test.publicKey,
      secret: tenant.test.secret,
      fetch: (request: Request) => {
        requested.push(new URL(request.url).search);
        return fetch(request);
      },
    });
    for await (const entry of tracing.paginate(path, {
      params: { path: { investor_id: investor.id }, query: { page_size: 2 } },
    })) {
      paged.push(entry);
    }
    expect(paged).toEqual(whole.data.data);
    // Every page after the first was asked for by the previous page's token.
    const pages = Math.ceil(whole.data.data.length / 2);
    // (A last full page may still carry a token, whose page is empty.)
    expect(requested.length).toBeGreaterThanOrEqual(pages);
    expect(requested.length).toBeLessThanOrEqual(pages + 1);
    expect(requested.slice(1).every((query) => query.includes('page_token='))).toBe(true);
  });

  it('answers failed calls with the SVC envelope, and paginate throws it as a typed error', async () => {
    const { data, error, response } = await client.GET('/v1/investors/{investor_id}', {
      params: { path: { investor_id: 'inv_3nF8qK1sX0aZ7vB2mL9cTw' } },
    });
    expect(data).toBeUndefined();
    expect(response.status).toBe(404);
    expect(error.error).toMatchObject({ type: 'not_found_error', code: 'SVC-404-001' });

    const pages = client.paginate('/v1/investors', { params: { query: { limit: 1000 } } });
    const thrown = await pages[Symbol.asyncIterator]()
      .next()
      .catch((err: unknown) => err);
    expect(thrown).toBeInstanceOf(sdk.InvestmentServiceError);
    expect(thrown).toMatchObject({ status: 400, code: 'SVC-400-001', param: 'limit' });
    expect(thrown.requestId).toMatch(/^req_/);
  });

  it('keeps a given Idempotency-Key, so a repeated POST is answered once', async () => {
    const body = investorBody();
    const headers = { 'Idempotency-Key': `client-${Date.now()}` };
    const first = await client.POST('/v1/investors', { body, headers });
    const again = await client.POST('/v1/investors', { body, headers });
    expect(again.data.id).toBe(first.data.id);
    expect(again.response.headers.get('idempotent-replayed')).toBe('true');
  });

  it('retries 429 and 503 after their Retry-After, and network errors of idempotent calls only', async () => {
    const calls: string[] = [];
    let refuse = 2;
    let drop = 1;
    const flaky = sdk.createClient({
      baseUrl,
      publicKey: tenant.test.publicKey,
      secret: tenant.test.secret,
      fetch: async (request: Request) => {
        calls.push(`${request.method} ${request.headers.get('idempotency-key') ?? ''}`);
        if (refuse-- > 0) {
          return new Response('{}', { status: refuse === 1 ? 429 : 503, headers: { 'Retry-After': '1' } });
        }
        if (drop-- > 0) {
          throw new TypeError('fetch failed');
        }
        return fetch(request);
      },
    });
    const started = Date.now();
    const created = await flaky.POST('/v1/investors', { body: investorBody() });
    expect(created.response.status).toBe(201);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_000);
    // One key for every attempt of the POST: the service acts once.
    expect(new Set(calls).size).toBe(1);
    expect(calls).toHaveLength(4);

    drop = 1;
    await expect(
      flaky.PATCH('/v1/investors/{investor_id}', {
        params: { path: { investor_id: created.data.id } },
        body: { metadata: { tier: 'gold' } },
      }),
    ).rejects.toThrow('fetch failed');
  });

  it('events.stream() resumes from its last id after the connection drops', async () => {
    let connections = 0;
    const lastIds: Array<string | null> = [];
    const dropping = sdk.createClient({
      baseUrl,
      publicKey: tenant.test.publicKey,
      secret: tenant.test.secret,
      // The first connection ends right after its first event, as a dropped network would.
      fetch: async (request: Request) => {
        const response = await fetch(request);
        if (!request.url.includes('/v1/events/stream')) {
          return response;
        }
        lastIds.push(request.headers.get('last-event-id'));
        if (connections++ > 0 || !response.body) {
          return response;
        }
        const reader = response.body.getReader();
        const decoder = new TextDecoder();
        let text = '';
        const firstEventOnly = new ReadableStream<Uint8Array>({
          async pull(controller) {
            const { value, done } = await reader.read();
            text += value ? decoder.decode(value, { stream: true }) : '';
            const data = text.indexOf('\ndata:');
            const end = data < 0 ? -1 : text.indexOf('\n\n', data);
            if (done || end >= 0) {
              controller.enqueue(new TextEncoder().encode(end >= 0 ? text.slice(0, end + 2) : text));
              controller.close();
              await reader.cancel();
            }
          },
        });
        return new Response(firstEventOnly, { status: response.status, headers: response.headers });
      },
    });
    const created: string[] = [];
    for (let i = 0; i < 3; i++) {
      created.push((await ok('/v1/investors', { body: investorBody() })).id);
    }
    const events = await client.GET('/v1/events', {
      params: { query: { event: 'account.created', limit: 100 } },
    });
    const ids = (events.data.data as any[])
      .filter((e) => created.includes(e.data.investor_id))
      .map((e) => e.id)
      .reverse();
    const heard: string[] = [];
    const stop = new AbortController();
    streams.push(stop);
    for await (const event of dropping.events.stream({
      types: ['account.created'],
      sinceId: ids[0],
      signal: stop.signal,
    })) {
      heard.push(event.id);
      if (heard.length === 2) {
        stop.abort();
      }
    }
    expect(heard).toEqual(ids.slice(1));
    expect(connections).toBeGreaterThanOrEqual(2);
    expect(lastIds.slice(0, 2)).toEqual([ids[0], ids[1]]);
  });

  /** The package under test, from its build. */
  const sdk = loadClientPackage();

  /** POST that must succeed: answers `data`. */
  const ok = async (path: string, init: Record<string, unknown> = {}) => {
    const { data, error, response } = await client.POST(path, init);
    if (error) {
      throw new Error(`${path} answered ${response.status}: ${JSON.stringify(error)}`);
    }
    return data;
  };

  /** clientNotingPosts, with the tenant's test clock frozen at MONDAY_OPEN through it. */
  async function clientAtMondayOpen() {
    const noting = clientNotingPosts();
    const clock = await noting.POST('/v1/test_helpers/clock', { body: { frozen_time: MONDAY_OPEN } });
    expect(clock.response.status).toBe(200);
    return noting;
  }

  /** The Idempotency-Key of every POST clientNotingPosts sent. */
  const posts: Array<string | null> = [];

  /** The client on the tenant's test keys, noting the Idempotency-Key of every POST it sends. */
  function clientNotingPosts() {
    return sdk.createClient({
      baseUrl,
      publicKey: tenant.test.publicKey,
      secret: tenant.test.secret,
      fetch: (request: Request) => {
        if (request.method === 'POST') {
          posts.push(request.headers.get('idempotency-key'));
        }
        return fetch(request);
      },
    });
  }
});
