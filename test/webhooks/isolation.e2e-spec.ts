import { isFanOut } from 'src/modules/webhooks/delivery/delivery-job';
import { itLocal, useTenant, useTestContext } from '../support/app';
import { Receiver } from './support/receiver';
import { attemptsOf, createEndpoint, deliveryQueue, dropQueueKeys, emit } from './support/webhooks';

// Four delivery slots and a long time-out: a hanging receiver could hold every slot for 10 s.
process.env.WEBHOOK_CONCURRENCY = '4';
process.env.WEBHOOK_TIMEOUT_MS = '10000';

describe('Delivery isolation', () => {
  const ctx = useTestContext();
  const tenant = useTenant(ctx);
  const slow = new Receiver();
  const fast = new Receiver();
  beforeAll(async () => (await slow.start()).answerWith('hang'));
  beforeAll(() => fast.start());
  afterAll(async () => {
    await Promise.all([slow.stop(), fast.stop()]);
    await ctx.close();
    await dropQueueKeys();
  });

  itLocal(
    'an endpoint that hangs does not hold back deliveries to other endpoints',
    async () => {
      const hanging = await createEndpoint(ctx, tenant.test, { url: slow.url, eventTypeNames: ['order.*'] });
      await createEndpoint(ctx, tenant.test, { url: fast.url, eventTypeNames: ['account.*'] });
      // Eight deliveries queued for the hanging endpoint first, then one for the other.
      for (let i = 0; i < 8; i++) {
        await emit(ctx, { tenantId: tenant.tenantId, event: 'order.filled' });
      }
      const started = Date.now();
      const event = await emit(ctx, { tenantId: tenant.tenantId, event: 'account.updated' });
      await fast.waitForCount(1, 5000);
      expect(Date.now() - started).toBeLessThan(5000);
      expect(fast.requests[0].headers['webhook-id']).toBe(event.id);
      // The hanging endpoint holds one slot (4 / 4); its other deliveries were put back on the
      // queue, not counted as attempts.
      expect(slow.requests.length).toBe(1);
      const deferred = (await deliveryQueue(ctx).getDelayed()).filter(
        (job) =>
          !isFanOut(job.data) && job.data.endpointId === hanging.id && String(job.id).includes(':deferred:'),
      );
      expect(deferred.length).toBeGreaterThanOrEqual(1);
      expect(deferred.every((job) => job.data.attempt === 1)).toBe(true);
      const [first] = deferred;
      expect(await attemptsOf(ctx, first.data.eventId)).toEqual([]);
    },
    20_000,
  );
});
