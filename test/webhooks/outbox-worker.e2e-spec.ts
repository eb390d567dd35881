import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { EventsService } from 'src/core/events/events.service';
import { DeliveryQueue } from 'src/modules/webhooks/delivery/delivery-queue.service';
import { WorkerModule } from 'src/worker.module';
import { itLocal, useTenant, useTestContext } from '../support/app';
import { madeBeforeAll } from '../support/made-before-all';
import { Receiver } from './support/receiver';
import { createEndpoint, dropQueueKeys, emit, eventually } from './support/webhooks';

describe('Outbox: the worker process, and a relay that dies', () => {
  // The API runs no relay and no consumer here (as in docker-compose): the worker process does.
  process.env.WORKER_IN_PROCESS = 'false';
  const ctx = useTestContext();
  const tenant = useTenant(ctx);
  const receiver = madeBeforeAll('The receiver', () => new Receiver().start());
  let endpointId: string;
  beforeAll(async () => {
    endpointId = (await createEndpoint(ctx, tenant.test, { url: receiver.url, eventTypeNames: ['*'] })).id;
  });
  let worker: INestApplicationContext | undefined;
  afterAll(() => stopInOrder());

  itLocal(
    'events committed while no relay runs, or held by a relay that dies mid-pass, are delivered once each by the next one',
    async () => {
      // 1. Committed, but no relay is running (killed between commit and enqueue): they wait.
      const waiting = [
        (await emit(ctx, { tenantId: tenant.tenantId, event: 'order.accepted' })).id,
        (await emit(ctx, { tenantId: tenant.tenantId, event: 'order.filled' })).id,
      ];
      // 2. A relay that enqueued this one and died before its commit: the job exists, the row is unrelayed.
      const enqueued = (await emit(ctx, { tenantId: tenant.tenantId, event: 'account.created' })).id;
      await ctx.app!.get(DeliveryQueue).addMany([{ eventId: enqueued, endpointId, run: 0, attempt: 1 }]);
      // 3. A relay that claimed this one (row locked, as the relay does) and is killed mid-pass.
      const claimed = (await emit(ctx, { tenantId: tenant.tenantId, event: 'transfer.deposit.completed' }))
        .id;
      const dying = ctx.app!.get(DataSource).createQueryRunner();
      await dying.connect();
      await dying.startTransaction();
      const events = ctx.app!.get(EventsService);
      const held = await events.claimUnrelayed(dying.manager, 100);
      expect(held.map((e) => e.id).sort()).toEqual([...waiting, enqueued, claimed].sort());
      const [{ pid }] = await dying.query('SELECT pg_backend_pid() AS pid');

      await new Promise((r) => setTimeout(r, 600));
      expect(receiver.requests).toEqual([]);
      expect((await unrelayed([...waiting, enqueued, claimed])).length).toBe(4);

      // The worker process starts while the dying relay still holds the rows: it skips them.
      worker = await NestFactory.createApplicationContext(WorkerModule, { logger: false });
      await worker.init();
      // The job the dead relay did enqueue is delivered by the worker's consumer.
      await receiver.waitUntil(() => receiver.forEvent(enqueued).length === 1);
      await new Promise((r) => setTimeout(r, 600));
      expect(receiver.requests.map((r) => r.headers['webhook-id'])).toEqual([enqueued]);

      // The holder dies (its session ends, as when the process is killed): the rows unlock.
      await ctx.dataSource.query('SELECT pg_terminate_backend($1)', [pid]);
      await dying.release().catch(() => undefined);

      const all = [...waiting, enqueued, claimed];
      await receiver.waitUntil(() => all.every((id) => receiver.forEvent(id).length > 0), 10_000);
      await eventually(
        () => unrelayed(all),
        (rows) => rows.length === 0,
      );
      await new Promise((r) => setTimeout(r, 500));
      // Once each: the re-relayed enqueued event kept its job id, so it was not sent twice.
      expect(all.map((id) => receiver.forEvent(id).length)).toEqual([1, 1, 1, 1]);
    },
    30_000,
  );

  itLocal('the API without an in-process worker only enqueues; the worker delivers', async () => {
    const event = await emit(ctx, { tenantId: tenant.tenantId, event: 'order.canceled' });
    await receiver.waitUntil(() => receiver.forEvent(event.id).length === 1);
    expect(receiver.forEvent(event.id)[0].headers['webhook-id']).toBe(event.id);
  });

  const unrelayed = async (ids: string[]): Promise<string[]> =>
    (
      await ctx.dataSource.query('SELECT "id" FROM "events" WHERE "id" = ANY($1) AND "relayed_at" IS NULL', [
        ids,
      ])
    ).map((r: { id: string }) => r.id);

  /** The worker, the receiver, then the app; the queue keys once the app has stopped. */
  async function stopInOrder(): Promise<void> {
    await worker?.close();
    await receiver.stop();
    await ctx.close();
    await dropQueueKeys();
  }
});
