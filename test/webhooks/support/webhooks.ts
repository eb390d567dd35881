import type { Job, Queue } from 'bull';
import { DataSource } from 'typeorm';
import type { EventName } from 'src/core/events/event-types';
import { EventEntity } from 'src/core/events/event.entity';
import { EventsService } from 'src/core/events/events.service';
import { DeliveryJobData, deliveryJobId, DeliveryQueueJob } from 'src/modules/webhooks/delivery/delivery-job';
import { DeliveryQueue } from 'src/modules/webhooks/delivery/delivery-queue.service';
import { basic, isRemote, TestContext, TestCredentials } from '../../support/app';
import { testRedisTarget, unlinkKeysMatching } from '../../support/redis';

export interface AttemptRecord {
  attempt: number;
  run: number;
  endpoint_id: string;
  succeeded: boolean;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  attempted_at: Date;
  next_attempt_at: Date | null;
}

/** Emits an event the way every module does: one call inside the caller's transaction. */
export async function emit(
  ctx: TestContext,
  input: { tenantId: string; livemode?: boolean; event: EventName; data?: Record<string, unknown> },
): Promise<EventEntity> {
  const app = ctx.app!;
  return app.get(DataSource).transaction((manager) =>
    app.get(EventsService).emit(manager, {
      tenantId: input.tenantId,
      livemode: input.livemode ?? false,
      event: input.event,
      data: input.data ?? { id: 'ord_x' },
    }),
  );
}

export async function createEndpoint(
  ctx: TestContext,
  creds: TestCredentials,
  body: { url: string; eventTypeNames: string[]; name?: string },
): Promise<{ id: string; secret: string; livemode: boolean }> {
  const res = await ctx
    .http()
    .post('/v1/webhooks')
    .set('Authorization', basic(creds))
    .send({ name: 'test endpoint', ...body });
  if (res.status !== 201) {
    throw new Error(`POST /v1/webhooks answered ${res.status}: ${JSON.stringify(res.body)}`);
  }
  return res.body as { id: string; secret: string; livemode: boolean };
}

export async function attemptsOf(
  ctx: TestContext,
  eventId: string,
  endpointId?: string,
): Promise<AttemptRecord[]> {
  return ctx.dataSource.query(
    `SELECT "attempt", "run", "endpoint_id", "succeeded", "status_code", "error", "duration_ms", "attempted_at",
            "next_attempt_at"
       FROM "webhook_delivery_attempts"
      WHERE "event_id" = $1 AND ($2::text IS NULL OR "endpoint_id" = $2)
      ORDER BY "run", "attempt", "attempted_at"`,
    [eventId, endpointId ?? null],
  );
}

/** Polls until `read` returns a value passing `done`. */
export async function eventually<T>(
  read: () => Promise<T>,
  done: (v: T) => boolean,
  timeoutMs = 5000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) {
      return value;
    }
    if (Date.now() > deadline) {
      throw new Error(`Condition not met within ${timeoutMs} ms; last value: ${JSON.stringify(value)}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Waits for the first attempt of `eventId` and asserts it failed as a timeout of the files'
 * WEBHOOK_TIMEOUT_MS (1,500 ms): no status, the timeout's words, and as long as the bound (the
 * sweep finds it within 250 ms of its deadline). Returns the row.
 */
export async function expectTimedOutFirstAttempt(ctx: TestContext, eventId: string): Promise<AttemptRecord> {
  const [row] = await eventually(
    () => attemptsOf(ctx, eventId),
    (r) => r.length === 1,
    6000,
  );
  expect(row).toMatchObject({
    attempt: 1,
    succeeded: false,
    status_code: null,
    error: 'timeout: no answer within 1500 ms',
  });
  expect(row.duration_ms).toBeGreaterThanOrEqual(1400);
  expect(row.duration_ms).toBeLessThan(3000);
  return row;
}

export function deliveryQueue(ctx: TestContext): Queue<DeliveryQueueJob> {
  return ctx.app!.get(DeliveryQueue).queue;
}

/**
 * The scheduled job of one attempt: asserts it sits in Bull's delayed set and returns it with the
 * delay Bull will wait. `promote()` on it runs the attempt now, the way time passing would.
 */
export async function delayedAttempt(
  ctx: TestContext,
  data: DeliveryJobData,
): Promise<Job<DeliveryQueueJob>> {
  const job = await deliveryQueue(ctx).getJob(deliveryJobId(data));
  if (!job) {
    throw new Error(`No job for ${deliveryJobId(data)}`);
  }
  expect(await job.getState()).toBe('delayed');
  return job;
}

/**
 * Removes this file's Bull keys from Redis (its QUEUE_PREFIX is its own): scheduled retries hours
 * away and kept completed jobs would otherwise stay behind after the test run.
 */
export async function dropQueueKeys(target = testRedisTarget()): Promise<void> {
  const prefix = process.env.QUEUE_PREFIX;
  // Never against a deployment: its queues are not this run's to clear.
  if (!prefix || isRemote) {
    return;
  }
  await unlinkKeysMatching(`${prefix}:*`, target);
}

/** True when `name` matches an `event` filter of GET /v1/events: a name, `family.*` or `*`. */
export function matchesEventFilter(filter: string, name: string): boolean {
  if (filter === '*') {
    return true;
  }
  return filter.endsWith('.*') ? name.startsWith(filter.slice(0, -1)) : name === filter;
}
