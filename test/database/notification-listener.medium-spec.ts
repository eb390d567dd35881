import { Logger } from '@nestjs/common';
import { NotificationListener, NotificationListenerOptions } from 'src/core/database/notification-listener';
import { createServiceContext, describeLocal, ServiceContext } from '../support/service-context';
import { eventually } from '../webhooks/support/webhooks';

describeLocal('Notification listeners of a process', () => {
  let ctx: ServiceContext;
  const started: NotificationListener[] = [];

  beforeAll(async () => {
    ctx = await createServiceContext([]);
  });

  afterAll(async () => {
    await Promise.all(started.map((listener) => listener.stop()));
    await ctx?.close();
  });

  it('share one LISTEN connection; each hears its own channels, loses and regains them together', async () => {
    const clocks = recorder('shared_test_a');
    const catalogue = recorder('shared_test_b', 'shared_test_c');
    await clocks.listener.start();
    await catalogue.listener.start();
    expect(await listeningSessions()).toBe(1);
    expect([clocks.listening, catalogue.listening]).toEqual([1, 1]);

    await notify('shared_test_a', 'one');
    await notify('shared_test_c', 'two');
    await until(() => clocks.heard.length === 1 && catalogue.heard.length === 1);
    expect(clocks.heard).toEqual(['shared_test_a:one']);
    expect(catalogue.heard).toEqual(['shared_test_c:two']);

    // The session ends (a restart, a failover): both stop trusting, then both listen again.
    await ctx.dataSource.query(
      `SELECT pg_terminate_backend("pid") FROM pg_stat_activity
        WHERE "datname" = current_database() AND "query" LIKE 'LISTEN %' AND "pid" <> pg_backend_pid()`,
    );
    await until(() => clocks.lost >= 1 && catalogue.lost >= 1);
    await until(() => clocks.listening === 2 && catalogue.listening === 2);
    expect(await listeningSessions()).toBe(1);
    await notify('shared_test_b', 'three');
    await until(() => catalogue.heard.length === 2);
    expect(catalogue.heard[1]).toBe('shared_test_b:three');

    // One leaves: the other still hears; the last one leaving closes the connection.
    await clocks.listener.stop();
    await notify('shared_test_a', 'four');
    await notify('shared_test_b', 'five');
    await until(() => catalogue.heard.length === 3);
    expect(clocks.heard).toEqual(['shared_test_a:one']);
    await catalogue.listener.stop();
    await eventually(listeningSessions, (sessions) => sessions === 0);
  });

  /** A listener on `channels` of the file's database counting what reaches it. */
  function recorder(...channels: string[]) {
    const seen = { heard: [] as string[], listening: 0, lost: 0 };
    const options: NotificationListenerOptions = {
      connectionString: process.env.DATABASE_URL as string,
      channels,
      logger: new Logger('NotificationListenerSpec'),
      subject: `${channels.join(', ')} notifications`,
      fallback: 'nothing',
      onNotification: (channel, payload) => seen.heard.push(`${channel}:${payload}`),
      onListening: () => void seen.listening++,
      onLost: () => void seen.lost++,
    };
    const listener = new NotificationListener(options);
    started.push(listener);
    return Object.assign(seen, { listener });
  }

  /** Notifications arrive asynchronously: waits for what they bring about. */
  const until = (condition: () => boolean) => eventually(() => Promise.resolve(condition()), Boolean);

  const notify = (channel: string, payload: string) =>
    ctx.dataSource.query('SELECT pg_notify($1, $2)', [channel, payload]);

  async function listeningSessions(): Promise<number> {
    const [{ count }] = await ctx.dataSource.query(
      `SELECT count(*)::int AS "count" FROM pg_stat_activity
        WHERE "datname" = current_database() AND "query" LIKE 'LISTEN %' AND "state" <> 'disabled'`,
    );
    return count as number;
  }
});
