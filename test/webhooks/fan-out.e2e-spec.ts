import { Webhook } from 'standardwebhooks';
import { deliveryJobId, FanOutJobData } from 'src/modules/webhooks/delivery/delivery-job';
import { DeliveryWorker } from 'src/modules/webhooks/delivery/delivery.worker';
import { RETRY_DELAYS_MS } from 'src/modules/webhooks/delivery/retry-schedule';
import { itLocal, TestTenant, useTestContext } from '../support/app';
import { Receiver } from './support/receiver';
import { attemptsOf, delayedAttempt, deliveryQueue, eventually } from './support/webhooks';
import { createEndpoint, dropQueueKeys, emit } from './support/webhooks';

// Four POSTs in flight at most, so the bound is visible with a handful of endpoints.
process.env.WEBHOOK_CONCURRENCY = '4';

describe('Webhook fan-out: one queue job per event, one attempt per endpoint', () => {
  const ctx = useTestContext();
  const receiver = new Receiver();
  beforeAll(() => receiver.start());
  afterAll(async () => {
    await receiver.stop();
    await ctx.close();
    await dropQueueKeys();
  });

  itLocal(
    'an event for three endpoints is one job; each gets it signed once; a failing one is retried alone on the schedule',
    async () => {
      const { tenant, endpoints } = await endpointsOf('trio', 3);
      receiver.answerWith((r) => (r.path.endsWith('trio-2') ? 500 : 200));
      const event = await emit(ctx, { tenantId: tenant.tenantId, event: 'order.filled' });
      await receiver.waitUntil(() => receiver.forEvent(event.id).length === 3);

      const ids = endpoints.map((e) => e.id);
      const job = await deliveryQueue(ctx).getJob(deliveryJobId(fanOutJob(event.id, ids)));
      expect(job?.data).toEqual(fanOutJob(event.id, ids));
      for (const id of ids) {
        expect(await deliveryQueue(ctx).getJob(`${event.id}:${id}:0:1`)).toBeNull();
      }
      for (const endpoint of endpoints) {
        const [req] = receiver.forEvent(event.id).filter((r) => endpoint.url.endsWith(r.path));
        expect(
          new Webhook(endpoint.secret).verify(req.body, req.headers as Record<string, string>),
        ).toMatchObject({
          id: event.id,
        });
      }

      const attempts = await eventually(
        () => attemptsOf(ctx, event.id),
        (rows) => rows.length === 3,
      );
      expect(attempts.map((a) => [a.endpoint_id, a.attempt, a.succeeded]).sort()).toEqual(
        [
          [ids[0], 1, true],
          [ids[1], 1, true],
          [ids[2], 1, false],
        ].sort(),
      );
      const retry = await delayedAttempt(ctx, { eventId: event.id, endpointId: ids[2], run: 0, attempt: 2 });
      expect(retry.opts.delay).toBeGreaterThanOrEqual(RETRY_DELAYS_MS[0] * 0.95);
      expect(retry.opts.delay).toBeLessThanOrEqual(RETRY_DELAYS_MS[0] * 1.05);
      receiver.answerWith(200);
      await retry.promote();
      await eventually(
        () => attemptsOf(ctx, event.id, ids[2]),
        (rows) => rows.length === 2 && rows[1].succeeded,
      );
      expect(
        receiver
          .forEvent(event.id)
          .map((r) => r.path)
          .sort(),
      ).toEqual(['/hooks/trio-0', '/hooks/trio-1', '/hooks/trio-2', '/hooks/trio-2']);
    },
  );

  itLocal('a fan-out job run again (its worker died mid-job) sends only what is not on record', async () => {
    receiver.answerWith(200);
    const { tenant, endpoints } = await endpointsOf('rerun', 3);
    const event = await emit(ctx, { tenantId: tenant.tenantId, event: 'order.accepted' });
    await eventually(
      () => attemptsOf(ctx, event.id),
      (rows) => rows.length === 3,
    );
    // The worker died after the third POST, before its attempt was stored.
    await ctx.dataSource.query(
      'DELETE FROM "webhook_delivery_attempts" WHERE "event_id" = $1 AND "endpoint_id" = $2',
      [event.id, endpoints[2].id],
    );

    const outcome = await ctx.app!.get(DeliveryWorker).run(
      fanOutJob(
        event.id,
        endpoints.map((e) => e.id),
      ),
    );

    expect(outcome).toEqual({ 'already recorded': 2, delivered: 1 });
    expect(
      receiver
        .forEvent(event.id)
        .map((r) => r.path)
        .sort(),
    ).toEqual(['/hooks/rerun-0', '/hooks/rerun-1', '/hooks/rerun-2', '/hooks/rerun-2']);
    expect((await attemptsOf(ctx, event.id)).map((a) => a.endpoint_id).sort()).toEqual(
      endpoints.map((e) => e.id).sort(),
    );
  });

  itLocal(
    'fan-out jobs together keep at most WEBHOOK_CONCURRENCY POSTs in flight, across origins',
    async () => {
      // Three receivers, so three origins: the HTTP agent's sockets per origin (4) do not bound the
      // total; only the process's bound does.
      const gauge = { now: 0, max: 0 };
      const origins = [new Receiver(gauge), new Receiver(gauge), new Receiver(gauge)];
      const tenant: TestTenant = await ctx.createTenant();
      try {
        for (const origin of origins) {
          await origin.start();
          origin.answerWith({ status: 200, afterMs: 100 });
          for (const name of ['a', 'b']) {
            await createEndpoint(ctx, tenant.test, {
              url: `${origin.url}/${name}`,
              eventTypeNames: ['order.*'],
            });
          }
        }
        const events = [
          await emit(ctx, { tenantId: tenant.tenantId, event: 'order.filled' }),
          await emit(ctx, { tenantId: tenant.tenantId, event: 'order.canceled' }),
        ];
        for (const origin of origins) {
          await origin.waitUntil(() => events.every((e) => origin.forEvent(e.id).length === 2), 10_000);
        }
        expect(gauge.max).toBe(4);
      } finally {
        await Promise.all(origins.map((origin) => origin.stop()));
      }
    },
  );

  /** A fresh tenant with `count` endpoints subscribed to order events, at /hooks/<prefix>-<i>. */
  async function endpointsOf(prefix: string, count: number) {
    const tenant: TestTenant = await ctx.createTenant();
    const endpoints = [];
    for (let i = 0; i < count; i++) {
      const url = `${receiver.url}/${prefix}-${i}`;
      endpoints.push({
        ...(await createEndpoint(ctx, tenant.test, { url, eventTypeNames: ['order.*'] })),
        url,
      });
    }
    return { tenant, endpoints };
  }

  const fanOutJob = (eventId: string, endpointIds: string[]): FanOutJobData => ({
    eventId,
    endpointIds,
    run: 0,
    attempt: 1,
  });
});
