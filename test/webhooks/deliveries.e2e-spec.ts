import { WebhookReceiver } from '../investors/receiver';
import { basic, isRemote, useTenant, useTestContext } from '../support/app';
import { dropQueueKeys } from './support/webhooks';

describe('Delivery attempts and resend', () => {
  const ctx = useTestContext();
  const tenant = useTenant(ctx);
  const other = useTenant(ctx);
  const receiver = new WebhookReceiver();
  let receiverUrl: string;
  let deadUrl: string;
  beforeAll(async () => {
    receiverUrl = await receiver.start({ ctx, creds: tenant.test });
    await setDeadUrl();
  });
  afterAll(async () => {
    await receiver.stop();
    await ctx.close();
    await dropQueueKeys();
  });

  it('lists a successful attempt by event and by endpoint, with url, status and duration', async () => {
    const webhookId = await webhook(receiverUrl);
    const eventId = await testEvent(webhookId);
    await receiver.waitFor([eventId]);
    const [attempt] = await attemptsUntil(`/v1/events/${eventId}/attempts`, (a) => a.length === 1);
    expect(attempt).toMatchObject({
      object: 'webhook_delivery_attempt',
      livemode: false,
      event_id: eventId,
      webhook_id: webhookId,
      url: receiverUrl,
      run: 0,
      attempt: 1,
      succeeded: true,
      status_code: 200,
      error: null,
      next_retry_at: null,
    });
    expect(attempt.duration_ms).toBeGreaterThanOrEqual(0);
    const byEndpoint = await ctx.as(tenant.test).get(`/v1/webhooks/${webhookId}/attempts`);
    expect(byEndpoint.body).toMatchObject({ object: 'list', url: `/v1/webhooks/${webhookId}/attempts` });
    expect(byEndpoint.body.data.map((a: Attempt) => a.id)).toEqual([attempt.id]);
  });

  it('shows a network failure with its error and the next retry', async () => {
    const webhookId = await webhook(deadUrl);
    const eventId = await testEvent(webhookId);
    const [attempt] = await attemptsUntil(`/v1/webhooks/${webhookId}/attempts`, (a) => a.length >= 1);
    expect(attempt).toMatchObject({ event_id: eventId, succeeded: false, status_code: null, attempt: 1 });
    expect(attempt.error).toEqual(expect.any(String));
    expect(Date.parse(attempt.next_retry_at!)).toBeGreaterThan(Date.now());
  });

  it('resends with the same event id as a new run, and again only once per Idempotency-Key', async () => {
    const webhookId = await webhook(receiverUrl);
    const eventId = await testEvent(webhookId);
    await receiver.waitFor([eventId]);
    await attemptsUntil(`/v1/events/${eventId}/attempts`, (a) => a.length === 1);
    const resend = () =>
      ctx
        .http()
        .post(`/v1/events/${eventId}/resend`)
        .set('Authorization', basic(tenant.test))
        .set('Idempotency-Key', `resend-${eventId}`)
        .send({});
    const res = await resend();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      object: 'event_resend',
      event_id: eventId,
      livemode: false,
      deliveries: [{ webhook_id: webhookId, run: 1 }],
    });
    const again = await resend();
    expect(again.headers['idempotent-replayed']).toBe('true');
    const attempts = await attemptsUntil(`/v1/events/${eventId}/attempts`, (a) => a.length === 2);
    expect(attempts.map((a) => [a.run, a.succeeded])).toEqual([
      [1, true],
      [0, true],
    ]);
    await receiver.refresh();
    const copies = receiver.deliveries.filter((d) => d.json.id === eventId);
    expect(copies).toHaveLength(2);
    expect(new Set(copies.map((d) => d.headers['webhook-id']))).toEqual(new Set([eventId]));
    // The replayed answer queued nothing more.
    await new Promise((r) => setTimeout(r, 300));
    expect((await ctx.as(tenant.test).get(`/v1/events/${eventId}/attempts`)).body.data).toHaveLength(2);
  });

  it('resends to one named endpoint, and refuses unknown, foreign and disabled ones', async () => {
    const webhookId = await webhook(receiverUrl);
    const eventId = await testEvent(webhookId);
    await receiver.waitFor([eventId]);
    const named = await ctx.as(tenant.test).post(`/v1/events/${eventId}/resend`, { endpoint: webhookId });
    expect(named.status).toBe(200);
    expect(named.body.deliveries).toEqual([{ webhook_id: webhookId, run: 1 }]);

    const foreignEndpoint = await webhook(receiverUrl, other.test);
    const foreign = await ctx
      .as(tenant.test)
      .post(`/v1/events/${eventId}/resend`, { endpoint: foreignEndpoint });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.param).toBe('endpoint');

    expect(
      (await ctx.as(tenant.test).post('/v1/events/evt_doesnotexist000000000000/resend', {})).status,
    ).toBe(404);
    expect((await ctx.as(other.test).post(`/v1/events/${eventId}/resend`, {})).status).toBe(404);
    expect((await ctx.as(tenant.live).post(`/v1/events/${eventId}/resend`, {})).status).toBe(404);
    expect((await ctx.as(other.test).get(`/v1/events/${eventId}/attempts`)).status).toBe(404);
    expect((await ctx.as(other.test).get(`/v1/webhooks/${webhookId}/attempts`)).status).toBe(404);

    const disabled = await ctx
      .http()
      .patch(`/v1/webhooks/${webhookId}`)
      .set('Authorization', basic(tenant.test))
      .send({ status: 'disabled' });
    expect(disabled.status).toBe(200);
    const refused = await ctx.as(tenant.test).post(`/v1/events/${eventId}/resend`, { endpoint: webhookId });
    expect(refused.status).toBe(409);
    expect(refused.body.error.param).toBe('endpoint');
  });

  it('pages attempts with cursors', async () => {
    const webhookId = await webhook(deadUrl);
    await testEvent(webhookId);
    await testEvent(webhookId);
    const all = await attemptsUntil(`/v1/webhooks/${webhookId}/attempts`, (a) => a.length === 2);
    const first = await ctx.as(tenant.test).get(`/v1/webhooks/${webhookId}/attempts?limit=1`);
    expect(first.body.has_more).toBe(true);
    expect(first.body.data[0].id).toBe(all[0].id);
    const second = await ctx
      .as(tenant.test)
      .get(`/v1/webhooks/${webhookId}/attempts?limit=1&starting_after=${all[0].id}`);
    expect(second.body.data.map((a: Attempt) => a.id)).toEqual([all[1].id]);
    expect(second.body.has_more).toBe(false);
    const bad = await ctx.as(tenant.test).get(`/v1/webhooks/${webhookId}/attempts?starting_after=wda_nope`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe('starting_after');
  });

  async function setDeadUrl(): Promise<void> {
    // A receiver that is gone: connection refused on every attempt (remotely, a closed port of the
    // sandbox's own loopback, which test keys may use).
    if (isRemote) {
      deadUrl = 'http://127.0.0.1:9/hooks';
    } else {
      const gone = new WebhookReceiver();
      deadUrl = await gone.start();
      await gone.stop();
    }
  }

  async function attemptsUntil(path: string, done: (a: Attempt[]) => boolean): Promise<Attempt[]> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const res = await ctx.as(tenant.test).get(path);
      expect(res.status).toBe(200);
      if (done(res.body.data)) {
        return res.body.data as Attempt[];
      }
      if (Date.now() > deadline) {
        throw new Error(`attempts at ${path} never matched: ${JSON.stringify(res.body.data)}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async function webhook(url: string, creds = tenant.test): Promise<string> {
    const res = await ctx.as(creds).post('/v1/webhooks', { name: 'deliveries', url, eventTypeNames: ['*'] });
    expect(res.status).toBe(201);
    return res.body.id as string;
  }

  async function testEvent(webhookId: string, creds = tenant.test): Promise<string> {
    const res = await ctx.as(creds).post(`/v1/test_helpers/webhooks/${webhookId}/test-event`, {});
    expect(res.status).toBe(200);
    return res.body.id as string;
  }
});

interface Attempt {
  id: string;
  event_id: string;
  webhook_id: string;
  url: string;
  run: number;
  attempt: number;
  succeeded: boolean;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  next_retry_at: string | null;
}
