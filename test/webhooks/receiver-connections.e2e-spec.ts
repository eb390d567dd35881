import { itLocal, useTestContext } from '../support/app';
import { Receiver } from './support/receiver';
import {
  attemptsOf,
  createEndpoint,
  dropQueueKeys,
  emit,
  eventually,
  expectTimedOutFirstAttempt,
} from './support/webhooks';

describe('Webhook delivery: the connection to the receiver', () => {
  // A receiver that does not finish its answer fails after this long (30 s in production).
  process.env.WEBHOOK_TIMEOUT_MS = '1500';
  const ctx = useTestContext();
  afterAll(async () => {
    await ctx.close();
    await dropQueueKeys();
  });

  itLocal('deliveries to one receiver, one after another, share one kept-alive connection', async () => {
    await withReceiver(async (receiver) => {
      const tenant = await ctx.createTenant();
      await createEndpoint(ctx, tenant.test, { url: `${receiver.url}/kept`, eventTypeNames: ['order.*'] });
      for (const n of [1, 2, 3]) {
        await emit(ctx, { tenantId: tenant.tenantId, event: 'order.filled' });
        await receiver.waitForCount(n);
      }
      expect(receiver.connections).toBe(1);
    });
  });

  itLocal('a receiver that sends its status and then stalls the body counts as a timeout', async () => {
    await withReceiver(async (receiver) => {
      receiver.answerWith('stall-body');
      const tenant = await ctx.createTenant();
      await createEndpoint(ctx, tenant.test, { url: `${receiver.url}/stalls`, eventTypeNames: ['*'] });
      const event = await emit(ctx, { tenantId: tenant.tenantId, event: 'account.created' });
      await expectTimedOutFirstAttempt(ctx, event.id);
    });
  });

  itLocal(
    'a redirect is not followed: the 302 is a failed attempt and its location gets nothing',
    async () => {
      await withReceiver(async (receiver) => {
        receiver.answerWith((r) => (r.path === '/hooks/moved' ? { redirectTo: '/hooks/elsewhere' } : 200));
        const tenant = await ctx.createTenant();
        await createEndpoint(ctx, tenant.test, { url: `${receiver.url}/moved`, eventTypeNames: ['*'] });
        const event = await emit(ctx, { tenantId: tenant.tenantId, event: 'account.created' });
        const [row] = await eventually(
          () => attemptsOf(ctx, event.id),
          (r) => r.length === 1,
        );
        expect(row).toMatchObject({ attempt: 1, succeeded: false, status_code: 302, error: 'HTTP 302' });
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(receiver.requests.map((r) => r.path)).toEqual(['/hooks/moved']);
      });
    },
  );
});

/** A receiver of the case's own (its connections counted apart from other cases'), stopped after it. */
async function withReceiver(test: (receiver: Receiver) => Promise<void>): Promise<void> {
  const receiver = await new Receiver().start();
  try {
    await test(receiver);
  } finally {
    await receiver.stop();
  }
}
