import type { EntityManager } from 'typeorm';
import { ClockModule } from 'src/core/clock/clock.module';
import { QueueModule } from 'src/core/queue/queue.module';
import { JobRegistry } from 'src/core/scheduler/job-registry';
import { JobRunner } from 'src/core/scheduler/job-runner.service';
import { JobScheduler } from 'src/core/scheduler/job-scheduler.service';
import type { DueJob } from 'src/core/scheduler/job-types';
import { SchedulerModule } from 'src/core/scheduler/scheduler.module';
import { madeBeforeAll } from '../support/made-before-all';
import { createServiceContext, describeLocal } from '../support/service-context';

describeLocal('Scheduler (service on a real database)', () => {
  const ctx = madeBeforeAll('The service context', () =>
    createServiceContext([ClockModule, QueueModule.forRoot({ consumers: false }), SchedulerModule]),
  );
  const scheduler = madeBeforeAll('The scheduler', () => Promise.resolve(ctx.app.get(JobScheduler)));
  const runner = madeBeforeAll('The job runner', () => Promise.resolve(ctx.app.get(JobRunner)));
  let tenantId: string;
  beforeAll(async () => {
    tenantId = await ctx.createTenant();
    registerRecordingJob();
  });

  it('schedules once per dedupe key, runs once, and a second run of a done job does nothing', async () => {
    const due = new Date(Date.now() - 1000);
    const first = await schedule('once', due);
    const again = await schedule('once', new Date(Date.now() + 60_000));
    expect(again).toEqual({ id: first.id, created: false });
    expect(await runner.runOne(first.id)).toBe('done');
    expect(await runner.runOne(first.id)).toBe('skipped');
    expect(runs.filter((r) => r.id === first.id)).toHaveLength(1);
    expect(runs.find((r) => r.id === first.id)?.dueAt).toEqual(due);
    expect(await row(first.id)).toEqual({ state: 'done', attempts: 1, last_error: null });
  });

  it('ensure creates a job once per dedupe key and keeps the first one as it is', async () => {
    const input = (dueAt: Date) => ({
      tenantId,
      livemode: true,
      kind: 'test.record',
      dueAt,
      payload: { dedupeKey: 'ensured' },
      dedupeKey: 'ensured',
    });
    const due = new Date(Date.now() + 3_600_000);
    expect(await ctx.dataSource.transaction((m) => scheduler.ensure(m, input(due)))).toBe(true);
    expect(
      await ctx.dataSource.transaction((m) => scheduler.ensure(m, input(new Date(Date.now() + 7_200_000)))),
    ).toBe(false);
    const jobs: Array<{ due_at: Date }> = await ctx.dataSource.query(
      `SELECT due_at FROM scheduled_jobs WHERE tenant_id = $1 AND dedupe_key = 'ensured'`,
      [tenantId],
    );
    expect(jobs.map((j) => j.due_at)).toEqual([due]);
  });

  it('a handler that fails leaves nothing behind; the failure is recorded and the job runs again', async () => {
    const job = await schedule('flaky', new Date(Date.now() - 1000));
    const nameBefore = await tenantName();
    failNext = 1;
    await expect(runner.runOne(job.id)).rejects.toThrow('handler failed after writing');
    await runner.recordFailure(job.id, new Error('handler failed after writing'), false);
    expect(await tenantName()).toBe(nameBefore);
    expect(await row(job.id)).toEqual({
      state: 'scheduled',
      attempts: 1,
      last_error: 'handler failed after writing',
    });
    expect(await runner.runOne(job.id)).toBe('done');
    expect(await row(job.id)).toMatchObject({ state: 'done', attempts: 2 });
  });

  it('a job given up after its last attempt is failed and never runs', async () => {
    const job = await schedule('hopeless', new Date(Date.now() - 1000));
    await runner.recordFailure(job.id, new Error('broken'), true);
    expect(await runner.runOne(job.id)).toBe('skipped');
    expect(await row(job.id)).toMatchObject({ state: 'failed', last_error: 'broken' });
  });

  it('a canceled job never runs', async () => {
    const job = await schedule('canceled', new Date(Date.now() - 1000));
    const canceled = await ctx.dataSource.transaction((m) =>
      scheduler.cancel(m, { tenantId, livemode: true, kind: 'test.record', dedupeKey: 'canceled' }),
    );
    expect(canceled).toBe(true);
    expect(await runner.runOne(job.id)).toBe('skipped');
    expect(runs.some((r) => r.id === job.id)).toBe(false);
  });

  it('a job not yet due by its clock goes back to waiting', async () => {
    const job = await schedule('future', new Date(Date.now() + 3_600_000));
    expect(await runner.runOne(job.id)).toBe('not_due');
    expect(await row(job.id)).toMatchObject({ state: 'scheduled', attempts: 0 });
  });

  it('runs a window of due jobs in due order, each at its due time', async () => {
    const t0 = new Date('2049-02-01T10:00:00Z');
    const at = (m: number) => new Date(t0.getTime() + m * 60_000);
    await schedule('w3', at(30), false);
    await schedule('w1', at(10), false);
    await schedule('w2', at(20), false);
    await schedule('w4', at(90), false);
    const seen = runs.length;
    expect(await runner.runDueUpTo({ tenantId, livemode: false }, t0, at(60))).toBe(3);
    expect(runs.slice(seen).map((r) => [r.payload.dedupeKey, r.now.toISOString()])).toEqual([
      ['w1', at(10).toISOString()],
      ['w2', at(20).toISOString()],
      ['w3', at(30).toISOString()],
    ]);
  });

  const runs: DueJob[] = [];
  let failNext = 0;

  /** A test.record job that records each run, or writes and then fails while failNext is above zero. */
  function registerRecordingJob(): void {
    ctx.app.get(JobRegistry).register('test.record', {
      run: async (manager: EntityManager, job: DueJob) => {
        // A write that must vanish with the run's transaction when the handler fails after it.
        await manager.query(`UPDATE tenants SET name = $2 WHERE id = $1`, [job.tenantId, `ran ${job.id}`]);
        if (failNext > 0) {
          failNext--;
          throw new Error('handler failed after writing');
        }
        runs.push(job);
      },
    });
  }

  const schedule = (dedupeKey: string, dueAt: Date, livemode = true) =>
    ctx.dataSource.transaction((m) =>
      scheduler.schedule(m, {
        tenantId,
        livemode,
        kind: 'test.record',
        dueAt,
        payload: { dedupeKey },
        dedupeKey,
      }),
    );
  const row = async (id: string) =>
    (
      await ctx.dataSource.query(`SELECT state, attempts, last_error FROM scheduled_jobs WHERE id = $1`, [id])
    )[0] as { state: string; attempts: number; last_error: string | null };
  const tenantName = async () =>
    (
      (await ctx.dataSource.query(`SELECT name FROM tenants WHERE id = $1`, [tenantId]))[0] as {
        name: string;
      }
    ).name;
});
