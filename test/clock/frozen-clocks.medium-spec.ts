import { ClockModule } from 'src/core/clock/clock.module';
import { ClockService } from 'src/core/clock/clock.service';
import { FrozenClocks } from 'src/core/clock/frozen-clocks';
import { TestClockRepository } from 'src/core/clock/test-clock.repository';
import { createServiceContext, describeLocal, ServiceContext } from '../support/service-context';

describeLocal('Test clocks shared between processes', () => {
  let ctx: ServiceContext;
  let clock: ClockService;
  let repository: TestClockRepository;

  beforeAll(async () => {
    ctx = await createServiceContext([ClockModule]);
    clock = ctx.app.get(ClockService);
    repository = ctx.app.get(TestClockRepository);
  });

  afterAll(() => ctx?.close());

  it('a clock moved by another process is seen here from its notification, without a query per read', async () => {
    const tenantId = await ctx.createTenant();
    const at = new Date('2049-05-03T14:00:00Z');
    expect(Math.abs((await clock.now({ tenantId, livemode: false })).getTime() - Date.now())).toBeLessThan(
      1000,
    );
    await setElsewhere(tenantId, at);
    await eventually(async () => (await clock.now({ tenantId, livemode: false })).getTime() === at.getTime());
    // Live mode never reads the test clock.
    expect(Math.abs((await clock.now({ tenantId, livemode: true })).getTime() - Date.now())).toBeLessThan(
      1000,
    );

    const spy = jest.spyOn(repository, 'find');
    await clock.now({ tenantId, livemode: false });
    expect(spy).not.toHaveBeenCalled();
    spy.mockRestore();

    await setElsewhere(tenantId, null);
    await eventually(
      async () => Math.abs((await clock.now({ tenantId, livemode: false })).getTime() - Date.now()) < 1000,
    );
  });

  it('an older state arriving late never replaces a newer one', () => {
    const frozen = ctx.app.get(FrozenClocks);
    const tenantId = 'ten_ordering';
    frozen.apply({ tenantId, version: 5, frozenTime: new Date('2049-01-02T00:00:00Z') });
    frozen.apply({ tenantId, version: 4, frozenTime: new Date('2049-01-01T00:00:00Z') });
    return expect(frozen.frozenTime(tenantId)).resolves.toEqual(new Date('2049-01-02T00:00:00Z'));
  });

  it('while its notifications are lost it reads PostgreSQL, then listens again', async () => {
    const tenantId = await ctx.createTenant();
    await ctx.dataSource.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE datname = current_database() AND query LIKE 'LISTEN%' AND pid <> pg_backend_pid()`,
    );
    const at = new Date('2049-06-01T12:00:00Z');
    await setElsewhere(tenantId, at);
    // Right away (notifications or not): the clock is never read stale.
    await eventually(async () => (await clock.now({ tenantId, livemode: false })).getTime() === at.getTime());
    const later = new Date('2049-06-02T12:00:00Z');
    await eventually(async () => {
      await setElsewhere(tenantId, later);
      const spy = jest.spyOn(repository, 'find');
      const seen = (await clock.now({ tenantId, livemode: false })).getTime() === later.getTime();
      const queried = spy.mock.calls.length > 0;
      spy.mockRestore();
      return seen && !queried; // listening again: served from memory
    });
  });

  /** What another process moving the clock does: the row and its notification, in one transaction. */
  const setElsewhere = (tenantId: string, at: Date | null) =>
    ctx.dataSource.transaction((m) => repository.set(m, tenantId, at));

  const eventually = async (check: () => Promise<boolean>) => {
    const deadline = Date.now() + 5000;
    while (!(await check())) {
      if (Date.now() > deadline) {
        throw new Error('condition not met within 5 s');
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  };
});
