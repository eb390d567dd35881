import { Webhook } from 'standardwebhooks';
import { closeCliContext } from 'src/cli/cli-context';
import { RETRY_DELAYS_MS } from 'src/modules/webhooks/delivery/retry-schedule';
import { basic, isRemote, itLocal, useTestContext } from '../support/app';
import { runCli } from '../support/cli';
import { expectSvcError } from '../support/errors';
import { createInvestor, prepareForKyc } from '../investors/fixtures';
import { Receiver, ReceivedRequest } from './support/receiver';
import { accountCreatedEvent, ApiAttempt, createSink, eventIdsIn, sinkRequests } from './support/sinks';
import { attemptsOf, createEndpoint, delayedAttempt, deliveryQueue } from './support/webhooks';
import { dropQueueKeys, emit, eventually, expectTimedOutFirstAttempt } from './support/webhooks';

describe('Webhook delivery', () => {
  // A receiver that never answers fails after this long (30 s in production) — see the time-out case.
  process.env.WEBHOOK_TIMEOUT_MS = '1500';
  const ctx = useTestContext();
  const receiver = new Receiver();
  beforeAll(() => receiver.start());
  afterAll(() => stopInOrder());

  it('an account.* endpoint receives account events signed so that standardwebhooks verifies them', async () => {
    const tenant = await newTenant();
    const sink = await createSink(ctx, tenant.test);
    const endpoint = await createEndpoint(ctx, tenant.test, { url: sink.url, eventTypeNames: ['account.*'] });
    const event = await accountCreatedEvent(ctx, tenant.test);
    const [req] = await eventually(
      () => sinkRequests(ctx, tenant.test, sink.id),
      (r) => r.length >= 1,
    );
    // The delivered record is the one GET /v1/events returns.
    const listed = await ctx.http().get(`/v1/events/${event}`).set('Authorization', basic(tenant.test));
    const payload = listed.body as { id: string; timestamp: string; data: { investor_id: string } };
    expect(payload).toMatchObject({ id: event, object: 'event', event: 'account.created', livemode: false });
    expect(payload.data.investor_id).toMatch(/^inv_/);
    // Delivered by its first attempt, before any retry was due (how fast is bench/webhooks' figure).
    expect(Date.parse(req.received_at) - Date.parse(payload.timestamp)).toBeLessThan(RETRY_DELAYS_MS[0]);
    expect(req.method).toBe('POST');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['webhook-id']).toBe(event);
    expect(Math.abs(Number(req.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(10);
    expect(req.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(verify(endpoint.secret, req)).toEqual(payload);
    expect(JSON.parse(req.body)).toEqual(payload);
    // Another secret, or a changed body, does not verify.
    const stranger = await createEndpoint(ctx, tenant.test, { url: sink.url, eventTypeNames: ['order.*'] });
    expect(() => verify(stranger.secret, req)).toThrow();
    const changed = req.body.replace('account.created', 'account.updated');
    expect(changed).not.toBe(req.body);
    expect(() => verify(endpoint.secret, { ...req, body: changed })).toThrow();
    const attempts = await eventually(
      async () =>
        (await ctx.http().get(`/v1/events/${event}/attempts`).set('Authorization', basic(tenant.test))).body
          .data as ApiAttempt[],
      (rows) => rows.length === 1,
    );
    expect(attempts[0]).toMatchObject({
      attempt: 1,
      run: 0,
      webhook_id: endpoint.id,
      succeeded: true,
      status_code: 200,
      error: null,
      next_retry_at: null,
    });
    expect(attempts[0].duration_ms).toBeGreaterThanOrEqual(0);
  });

  it('wildcards: each endpoint gets exactly the events its eventTypeNames match', async () => {
    const tenant = await newTenant();
    const sink = await createSink(ctx, tenant.test);
    // What each endpoint must get, written out per subscription (the oracle, not the service's matcher).
    const subscriptions: Record<string, { names: string[]; gets: (event: string) => boolean }> = {
      accounts: { names: ['account.*'], gets: (e) => e === 'account.created' || e === 'account.updated' },
      updated: { names: ['account.updated'], gets: (e) => e === 'account.updated' },
      kyc: {
        names: ['document.*', 'kyc.verification.approved'],
        gets: (e) => e === 'document.approved' || e === 'kyc.verification.approved',
      },
      all: { names: ['*'], gets: () => true },
      orders: { names: ['order.*'], gets: () => false },
      transfers: { names: ['transfer.*'], gets: () => false },
    };
    const endpoints: Record<string, string> = {};
    for (const [name, { names }] of Object.entries(subscriptions)) {
      endpoints[name] = (await createEndpoint(ctx, tenant.test, { url: sink.url, eventTypeNames: names })).id;
    }
    // An investor through KYC: account, document and kyc events, made through the API.
    const investor = await createInvestor(ctx, tenant.test);
    await prepareForKyc(ctx, tenant.test, investor.id);
    const kyc = await ctx
      .http()
      .post(`/v1/investors/${investor.id}/kyc`)
      .set('Authorization', basic(tenant.test));
    expect(kyc.body).toMatchObject({ status: 'approved' });
    const emitted = (await ctx.http().get('/v1/events?limit=100').set('Authorization', basic(tenant.test)))
      .body.data as Array<{ id: string; event: string }>;
    expect(new Set(emitted.map((e) => e.event))).toEqual(
      new Set(['account.created', 'account.updated', 'document.approved', 'kyc.verification.approved']),
    );
    const expected: Record<string, string[]> = {};
    for (const [name, { gets }] of Object.entries(subscriptions)) {
      expected[name] = emitted.filter((e) => gets(e.event)).map((e) => `${e.event} ${e.id}`);
    }
    const total = Object.values(expected).reduce((n, list) => n + list.length, 0);
    await eventually(
      () => sinkRequests(ctx, tenant.test, sink.id),
      (r) => r.length >= total,
      10_000,
    );
    await new Promise((r) => setTimeout(r, 400)); // nothing more arrives
    const received = await sinkRequests(ctx, tenant.test, sink.id);
    expect(received).toHaveLength(total);
    // Which endpoint got what, from the attempts the service recorded (recorded just after each answer).
    const attemptsByEndpoint = async () => {
      const got = Object.fromEntries(Object.keys(subscriptions).map((name) => [name, [] as string[]]));
      for (const event of emitted) {
        const attempts = await ctx
          .http()
          .get(`/v1/events/${event.id}/attempts`)
          .set('Authorization', basic(tenant.test));
        for (const attempt of attempts.body.data as ApiAttempt[]) {
          const name = Object.keys(endpoints).find((n) => endpoints[n] === attempt.webhook_id)!;
          got[name].push(`${event.event} ${event.id}`);
        }
      }
      return got;
    };
    const byEndpoint = await eventually(
      attemptsByEndpoint,
      (got) => Object.values(got).reduce((n, list) => n + list.length, 0) >= total,
    );
    for (const name of Object.keys(subscriptions)) {
      expect({ name, got: byEndpoint[name].sort() }).toEqual({ name, got: expected[name].sort() });
    }
  });

  it('test and live events, and other tenants, never cross', async () => {
    const tenant = await newTenant();
    const other = await newTenant();
    const sink = await createSink(ctx, tenant.test);
    await createEndpoint(ctx, tenant.test, { url: sink.url, eventTypeNames: ['*'] });
    const live = await accountCreatedEvent(ctx, tenant.live);
    const foreign = await accountCreatedEvent(ctx, other.test);
    const mine = await accountCreatedEvent(ctx, tenant.test);
    await eventually(
      () => sinkRequests(ctx, tenant.test, sink.id),
      (r) => r.length >= 1,
    );
    await new Promise((r) => setTimeout(r, 400));
    const got = (await sinkRequests(ctx, tenant.test, sink.id)).map(
      (r) => JSON.parse(r.body) as { id: string },
    );
    expect(got.map((e) => e.id)).toEqual([mine]);
    expect(got[0]).toMatchObject({ livemode: false });
    const attempts = async (eventId: string, creds: typeof tenant.test) =>
      (await ctx.http().get(`/v1/events/${eventId}/attempts`).set('Authorization', basic(creds))).body;
    expect(await attempts(live, tenant.live)).toMatchObject({ object: 'list', data: [] });
    expect(await attempts(foreign, other.test)).toMatchObject({ object: 'list', data: [] });
  });

  itLocal(
    'a failing receiver sees the five retries on the spec schedule, then the event is dead-lettered and replayed by the CLI',
    async () => {
      const tenant = await newTenant();
      receiver.answerWith((r) => (r.path === '/hooks/failing' ? 500 : 200));
      const endpoint = await createEndpoint(ctx, tenant.test, {
        url: at('failing'),
        eventTypeNames: ['order.*'],
      });
      const event = await emit(ctx, { tenantId: tenant.tenantId, event: 'order.rejected' });
      const job = { eventId: event.id, endpointId: endpoint.id, run: 0 };

      for (let attempt = 1; attempt <= 6; attempt++) {
        const rows = await eventually(
          () => attemptsOf(ctx, event.id),
          (r) => r.length === attempt,
        );
        const row = rows[attempt - 1];
        expect(row).toMatchObject({ attempt, succeeded: false, status_code: 500, error: 'HTTP 500' });
        if (attempt < 6) {
          // The next attempt waits in Bull's delayed set for about the spec's delay (±5 % jitter) ...
          const base = RETRY_DELAYS_MS[attempt - 1];
          const next = await delayedAttempt(ctx, { ...job, attempt: attempt + 1 });
          expect(next.opts.delay).toBeGreaterThanOrEqual(base * 0.95);
          expect(next.opts.delay).toBeLessThanOrEqual(base * 1.05);
          const recorded = row.next_attempt_at!.getTime() - row.attempted_at.getTime();
          expect(recorded).toBeGreaterThanOrEqual(base * 0.95);
          expect(recorded).toBeLessThanOrEqual(base * 1.05 + 2000);
          // ... and time passing is played by promoting it.
          await next.promote();
        } else {
          expect(row.next_attempt_at).toBeNull();
        }
      }
      expect(await deliveryQueue(ctx).getJob(`${event.id}:${endpoint.id}:0:7`)).toBeNull();
      const received = receiver.forEvent(event.id);
      expect(received).toHaveLength(6);
      for (const req of received) {
        expect(req.headers['webhook-id']).toBe(event.id);
        expect(verify(endpoint.secret, req)).toMatchObject({ id: event.id });
      }

      const listed = await runCli('dead-letters:list', '--tenant', tenant.tenantId);
      expect(listed.dead_letters).toEqual([
        {
          id: expect.stringMatching(/^dl_/),
          tenant_id: tenant.tenantId,
          livemode: false,
          endpoint_id: endpoint.id,
          event_id: event.id,
          attempts: 6,
          last_status_code: 500,
          last_error: 'HTTP 500',
          created_at: expect.any(String),
          replayed_at: null,
          replay_count: 0,
        },
      ]);

      receiver.answerWith(200);
      const replayed = await runCli('dead-letters:replay', listed.dead_letters[0].id);
      expect(replayed).toEqual({
        dead_letter_id: listed.dead_letters[0].id,
        event_id: event.id,
        endpoint_id: endpoint.id,
        run: 1,
      });
      await receiver.waitUntil(() => receiver.forEvent(event.id).length === 7);
      const redelivered = receiver.forEvent(event.id)[6];
      expect(redelivered.headers['webhook-id']).toBe(event.id);
      expect(verify(endpoint.secret, redelivered)).toMatchObject({ id: event.id, event: 'order.rejected' });
      const runs = await eventually(
        () => attemptsOf(ctx, event.id),
        (r) => r.length === 7,
      );
      expect(runs[6]).toMatchObject({ run: 1, attempt: 1, succeeded: true, status_code: 200 });
      expect((await runCli('dead-letters:list', '--tenant', tenant.tenantId)).dead_letters).toEqual([]);
      const history = await runCli('dead-letters:list', '--tenant', tenant.tenantId, '--include-replayed');
      expect(history.dead_letters).toEqual([
        expect.objectContaining({
          id: listed.dead_letters[0].id,
          replay_count: 1,
          replayed_at: expect.any(String),
        }),
      ]);

      // events:replay sends it once more, same id, to every endpoint subscribed now.
      const again = await runCli('events:replay', event.id);
      expect(again).toEqual({
        event_id: event.id,
        replayed: [{ event_id: event.id, endpoint_id: endpoint.id, run: 2 }],
      });
      await receiver.waitUntil(() => receiver.forEvent(event.id).length === 8);
      expect(receiver.forEvent(event.id)[7].headers['webhook-id']).toBe(event.id);
    },
  );

  itLocal(
    'dead-letters:replay --all replays every pending one of a tenant; unknown ids are errors',
    async () => {
      const tenant = await newTenant();
      receiver.answerWith((r) => (r.path === '/hooks/gone-all' ? 410 : 200));
      const endpoints = [
        await createEndpoint(ctx, tenant.test, { url: at('gone-all'), eventTypeNames: ['order.*'] }),
        await createEndpoint(ctx, tenant.test, { url: at('gone-all'), eventTypeNames: ['account.*'] }),
      ];
      await emit(ctx, { tenantId: tenant.tenantId, event: 'order.accepted' });
      await emit(ctx, { tenantId: tenant.tenantId, event: 'account.updated' });
      await eventually(
        () => runCli('dead-letters:list', '--tenant', tenant.tenantId),
        (out: { dead_letters: unknown[] }) => out.dead_letters.length === 2,
      );
      // A 410 disabled both; replay needs them enabled again.
      const skipped = await runCli('dead-letters:replay', '--all', '--tenant', tenant.tenantId);
      expect(skipped.replayed).toEqual([]);
      expect(skipped.skipped).toHaveLength(2);
      expect(skipped.skipped[0].reason).toMatch(/is disabled/);
      receiver.answerWith(200);
      for (const e of endpoints) {
        await ctx
          .http()
          .patch(`/v1/webhooks/${e.id}`)
          .set('Authorization', basic(tenant.test))
          .send({ status: 'enabled' });
      }
      const before = receiver.requests.filter(to('gone-all')).length;
      const out = await runCli('dead-letters:replay', '--all', '--tenant', tenant.tenantId);
      expect(out.replayed).toHaveLength(2);
      expect(out.skipped).toEqual([]);
      await receiver.waitUntil((all) => all.filter(to('gone-all')).length === before + 2);
      await expect(runCli('dead-letters:replay', 'dl_doesnotexist')).rejects.toThrow(/No such dead letter/);
      await expect(runCli('dead-letters:replay')).rejects.toThrow(/--all/);
      await expect(runCli('events:replay', 'evt_doesnotexist')).rejects.toThrow(/No such event/);
    },
  );

  it('a 410 answer disables the endpoint and dead-letters the event without retrying', async () => {
    const tenant = await newTenant();
    const sink = await createSink(ctx, tenant.test, 410);
    const endpoint = await createEndpoint(ctx, tenant.test, { url: sink.url, eventTypeNames: ['*'] });
    const event = await accountCreatedEvent(ctx, tenant.test);
    const attempts = await eventually(
      async () =>
        (await ctx.http().get(`/v1/events/${event}/attempts`).set('Authorization', basic(tenant.test))).body
          .data as ApiAttempt[],
      (r) => r.length === 1,
    );
    expect(attempts[0]).toMatchObject({
      attempt: 1,
      webhook_id: endpoint.id,
      succeeded: false,
      status_code: 410,
      next_retry_at: null,
    });
    const record = await eventually(
      async () =>
        (await ctx.http().get(`/v1/webhooks/${endpoint.id}`).set('Authorization', basic(tenant.test))).body,
      (b: { status: string }) => b.status === 'disabled',
    );
    expect(record.status).toBe('disabled');
    if (!isRemote) {
      expect(await deliveryQueue(ctx).getJob(`${event}:${endpoint.id}:0:2`)).toBeNull();
      const [deadLetter] = await ctx.dataSource.query(
        'SELECT "attempts", "last_status_code", "last_error" FROM "webhook_dead_letters" WHERE "event_id" = $1',
        [event],
      );
      expect(deadLetter).toEqual({
        attempts: 1,
        last_status_code: 410,
        last_error: 'HTTP 410: the receiver is gone; endpoint disabled',
      });
    }
    // Disabled: new events are not sent, and no retry of the first comes either.
    const later = await accountCreatedEvent(ctx, tenant.test);
    await new Promise((r) => setTimeout(r, 500));
    expect(eventIdsIn(await sinkRequests(ctx, tenant.test, sink.id))).toEqual([event]);
    const listed = await ctx
      .http()
      .get(`/v1/events/${later}/attempts`)
      .set('Authorization', basic(tenant.test));
    expect(listed.body.data).toEqual([]);
  });

  itLocal('a receiver that does not answer in time counts as a failure and is retried', async () => {
    const tenant = await newTenant();
    receiver.answerWith((r) => (r.path === '/hooks/silent' ? 'hang' : 200));
    const endpoint = await createEndpoint(ctx, tenant.test, { url: at('silent'), eventTypeNames: ['*'] });
    const event = await emit(ctx, { tenantId: tenant.tenantId, event: 'account.created' });
    await expectTimedOutFirstAttempt(ctx, event.id);
    const next = await delayedAttempt(ctx, {
      eventId: event.id,
      endpointId: endpoint.id,
      run: 0,
      attempt: 2,
    });
    expect(next.opts.delay).toBeGreaterThanOrEqual(57_000);
    receiver.answerWith(200);
  });

  itLocal(
    'a receiver that refuses connections is retried, and delivery resumes when it is back',
    async () => {
      const tenant = await newTenant();
      const down = await new Receiver().start();
      const url = down.url;
      await down.stop();
      const endpoint = await createEndpoint(ctx, tenant.test, { url, eventTypeNames: ['order.*'] });
      const event = await emit(ctx, { tenantId: tenant.tenantId, event: 'order.partially_filled' });
      const [row] = await eventually(
        () => attemptsOf(ctx, event.id),
        (r) => r.length === 1,
      );
      expect(row).toMatchObject({ attempt: 1, succeeded: false, status_code: null });
      expect(row.error).toMatch(/^connection error: ECONNREFUSED/);
      // The same port, listening again; the retry (promoted: "time passes") gets through.
      const back = new Receiver();
      await back.startOn(Number(new URL(url).port));
      try {
        await (
          await delayedAttempt(ctx, { eventId: event.id, endpointId: endpoint.id, run: 0, attempt: 2 })
        ).promote();
        await back.waitForCount(1);
        expect(back.requests[0].headers['webhook-id']).toBe(event.id);
        const rows = await eventually(
          () => attemptsOf(ctx, event.id),
          (r) => r.length === 2,
        );
        expect(rows[1]).toMatchObject({ attempt: 2, succeeded: true, status_code: 200 });
      } finally {
        await back.stop();
      }
    },
  );

  it('after a secret rotation, deliveries carry both signatures for 24 h', async () => {
    const tenant = await newTenant();
    const sink = await createSink(ctx, tenant.test);
    const endpoint = await createEndpoint(ctx, tenant.test, {
      url: sink.url,
      eventTypeNames: ['account.*', 'order.*'],
    });
    const rotated = await ctx
      .http()
      .post(`/v1/webhooks/${endpoint.id}/rotate-secret`)
      .set('Authorization', basic(tenant.test));
    expect(rotated.body.secret).not.toBe(endpoint.secret);
    const event = await accountCreatedEvent(ctx, tenant.test);
    const delivered = async (eventId: string) =>
      (
        await eventually(
          () => sinkRequests(ctx, tenant.test, sink.id),
          (r) => eventIdsIn(r).includes(eventId),
        )
      ).find((r) => JSON.parse(r.body).id === eventId)!;
    const req = await delivered(event);
    expect((req.headers['webhook-signature'] as string).split(' ')).toHaveLength(2);
    expect(verify(rotated.body.secret, req)).toMatchObject({ id: event });
    expect(verify(endpoint.secret, req)).toMatchObject({ id: event });
    if (isRemote) {
      return; // the end of the grace period is played below by moving it in the database
    }
    // After the grace period only the new secret signs.
    await ctx.dataSource.query(
      `UPDATE "webhook_endpoints" SET "previous_secret_expires_at" = now() - interval '1 second' WHERE "id" = $1`,
      [endpoint.id],
    );
    const later = await emit(ctx, { tenantId: tenant.tenantId, event: 'order.canceled' });
    const laterReq = await delivered(later.id);
    expect((laterReq.headers['webhook-signature'] as string).split(' ')).toHaveLength(1);
    expect(verify(rotated.body.secret, laterReq)).toMatchObject({ id: later.id });
    expect(() => verify(endpoint.secret, laterReq)).toThrow();
  });

  it('disabled or deleted endpoints get nothing, pending retries included', async () => {
    const tenant = await newTenant();
    const disabledSink = await createSink(ctx, tenant.test);
    const deletedSink = await createSink(ctx, tenant.test, 503);
    const kept = await createEndpoint(ctx, tenant.test, { url: disabledSink.url, eventTypeNames: ['*'] });
    const deleted = await createEndpoint(ctx, tenant.test, { url: deletedSink.url, eventTypeNames: ['*'] });
    await ctx
      .http()
      .patch(`/v1/webhooks/${kept.id}`)
      .set('Authorization', basic(tenant.test))
      .send({ status: 'disabled' });
    const event = await accountCreatedEvent(ctx, tenant.test);
    const [first] = await eventually(
      async () =>
        (await ctx.http().get(`/v1/events/${event}/attempts`).set('Authorization', basic(tenant.test))).body
          .data as ApiAttempt[],
      (r) => r.length === 1,
    );
    expect(first).toMatchObject({
      webhook_id: deleted.id,
      status_code: 503,
      next_retry_at: expect.any(String),
    });
    if (isRemote) {
      await ctx.http().delete(`/v1/webhooks/${deleted.id}`).set('Authorization', basic(tenant.test));
    } else {
      // The pending retry, played at once ("time passes"), finds the endpoint gone and is dropped.
      const retry = await delayedAttempt(ctx, { eventId: event, endpointId: deleted.id, run: 0, attempt: 2 });
      await ctx.http().delete(`/v1/webhooks/${deleted.id}`).set('Authorization', basic(tenant.test));
      await retry.promote();
      await eventually(
        () => retry.getState(),
        (state) => state === 'completed',
      );
      expect(await retry.finished()).toBe('dropped');
    }
    const later = await accountCreatedEvent(ctx, tenant.test);
    await new Promise((r) => setTimeout(r, 500));
    expect(await sinkRequests(ctx, tenant.test, disabledSink.id)).toEqual([]);
    expect(eventIdsIn(await sinkRequests(ctx, tenant.test, deletedSink.id))).toEqual([event]);
    const laterAttempts = await ctx
      .http()
      .get(`/v1/events/${later}/attempts`)
      .set('Authorization', basic(tenant.test));
    expect(laterAttempts.body.data).toEqual([]);
  });

  describe('POST /v1/test_helpers/webhooks/{id}/test-event', () => {
    it('sends a signed webhook.test event now, to that endpoint only', async () => {
      const tenant = await newTenant();
      const endpoint = await createEndpoint(ctx, tenant.test, {
        url: at('probe'),
        eventTypeNames: ['order.filled'],
      });
      await createEndpoint(ctx, tenant.test, { url: at('probe-other'), eventTypeNames: ['*'] });
      const res = await ctx
        .http()
        .post(`/v1/test_helpers/webhooks/${endpoint.id}/test-event`)
        .set('Authorization', basic(tenant.test));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        id: expect.stringMatching(/^evt_/),
        object: 'event',
        event: 'webhook.test',
        timestamp: expect.any(String),
        livemode: false,
        data: { object: 'webhook_endpoint', id: endpoint.id, message: expect.any(String) },
      });
      await receiver.waitUntil(() => receiver.forEvent(res.body.id).length === 1);
      const req = receiver.forEvent(res.body.id)[0];
      expect(req.path).toBe('/hooks/probe');
      expect(verify(endpoint.secret, req)).toEqual(res.body);
      await new Promise((r) => setTimeout(r, 300));
      expect(receiver.forEvent(res.body.id)).toHaveLength(1);
      const listed = await ctx
        .http()
        .get('/v1/events?event=webhook.test')
        .set('Authorization', basic(tenant.test));
      expect(listed.body.data).toEqual([res.body]);
    });

    it('live keys get 404; unknown ids 404; a disabled endpoint 409', async () => {
      const tenant = await newTenant();
      const endpoint = await createEndpoint(ctx, tenant.test, { url: at('probe2'), eventTypeNames: ['*'] });
      const send = (id: string, creds = tenant.test) =>
        ctx.http().post(`/v1/test_helpers/webhooks/${id}/test-event`).set('Authorization', basic(creds));
      expectSvcError(await send(endpoint.id, tenant.live), 'SVC-404-001');
      expectSvcError(await send('we_doesnotexist000000000'), 'SVC-404-001');
      await ctx
        .http()
        .patch(`/v1/webhooks/${endpoint.id}`)
        .set('Authorization', basic(tenant.test))
        .send({ status: 'disabled' });
      expectSvcError(await send(endpoint.id), 'SVC-409-001', { message: /is disabled/ });
    });
  });

  /** A fresh tenant per case, so endpoints of one case never see another's events. */
  const newTenant = () => ctx.createTenant();
  const at = (path: string) => `${receiver.url}/${path}`;
  const to = (path: string) => (r: ReceivedRequest) => r.path === `/hooks/${path}`;

  /** The CLI's context, the receiver, then the app; the queue keys once the app has stopped. */
  async function stopInOrder(): Promise<void> {
    await closeCliContext();
    await receiver.stop();
    await ctx.close();
    await dropQueueKeys();
  }
});

function verify(secret: string, req: Pick<ReceivedRequest, 'body' | 'headers'>): unknown {
  return new Webhook(secret).verify(req.body, req.headers as Record<string, string>);
}
