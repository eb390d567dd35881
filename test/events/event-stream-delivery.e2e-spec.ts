import { basic, createTestContext, itLocal, listeningUrl, TestContext, useTenant } from '../support/app';
import { madeBeforeAll } from '../support/made-before-all';
import { openStream, OpenStream } from '../support/event-stream';
import { createInvestor, investorBody } from '../investors/fixtures';
import { ApiProcess, startApiProcess } from '../foundation/support/api-process';

/**
 * The stream's delivery guarantees that need the in-process app: events committed by another
 * process, heartbeats (a short interval here), and the bound on what a slow reader costs.
 */
describe('GET /v1/events/stream: delivery across processes, heartbeats, slow readers', () => {
  const ctx = madeBeforeAll('The test context', createAppWithSmallStreams);
  let baseUrl: string;
  beforeAll(async () => (baseUrl = await listeningUrl(ctx)));
  const tenant = useTenant(ctx);
  const open: OpenStream[] = [];
  const processes: ApiProcess[] = [];
  afterEach(() => open.splice(0).forEach((s) => s.close()));
  afterAll(() => Promise.all(processes.map((p) => p.kill())));

  itLocal(
    'delivers an event committed by another API process',
    async () => {
      const other = await startApiProcess({
        WORKER_IN_PROCESS: 'false',
        MIGRATE_ON_START: 'false',
        LOG_LEVEL: 'silent',
      });
      processes.push(other);
      const s = await stream(baseUrl, tenant.test, { query: 'types=account.created' });
      const res = await fetch(`${other.baseUrl}/v1/investors`, {
        method: 'POST',
        headers: {
          Authorization: basic(tenant.test),
          'Content-Type': 'application/json',
        },
        body: JSON.stringify(investorBody()),
      });
      expect(res.status).toBe(201);
      const investor = (await res.json()) as { id: string };
      const [created] = await s.waitFor(1, (m) => m.data.data.investor_id === investor.id, 5_000);
      expect(created.event).toBe('account.created');
    },
    150_000,
  );

  itLocal('sends a heartbeat comment while idle', async () => {
    const s = await stream(baseUrl, tenant.test);
    await s.waitForComment((c) => c === 'heartbeat', HEARTBEAT_MS * 10);
  });

  itLocal(
    'closes the stream of a reader that falls behind, with a comment, and frees its slot; the reader resumes from its last id',
    async () => {
      const slow = await ctx.createTenant();
      const first = await createInvestor(ctx, slow.test);
      const [anchor] = await ctx.dataSource.query<Array<{ id: string }>>(
        `SELECT id FROM events WHERE tenant_id = $1 AND livemode = false ORDER BY created_at LIMIT 1`,
        [slow.tenantId],
      );
      // 48 MB of committed events (8 kB of data each): more than the loopback buffers of both ends
      // hold (tcp_wmem and tcp_rmem allow up to about 36 MB between them here).
      await ctx.dataSource.query(
        `INSERT INTO events (id, tenant_id, livemode, event, data, created_at)
         SELECT 'evt_bulk' || lpad(n::text, 8, '0'), $1, false, 'account.updated',
                jsonb_build_object('investor_id', $2::text, 'n', n, 'padding', repeat('x', 8000)),
                date_trunc('milliseconds', now()) + n * interval '1 millisecond'
         FROM generate_series(1, 6000) n`,
        [slow.tenantId, first.id],
      );
      const s = await stream(baseUrl, slow.test, { lastEventId: anchor.id });
      expect(s.status).toBe(200);
      s.pause();
      // Live events arrive while the replay waits on the reader: past the bound the stream closes.
      for (let i = 0; i < 10; i++) {
        await createInvestor(ctx, slow.test);
      }
      // Its slot is free at once: ten new streams open for the key although the reader still holds its socket.
      const others = [];
      for (let i = 0; i < 10; i++) {
        others.push(await stream(baseUrl, slow.test));
      }
      expect(others.map((o) => o.status)).toEqual(Array(10).fill(200));

      s.resume();
      await s.ended;
      const closing = s.comments.filter((c) => c.startsWith('closing:'));
      expect(closing).toEqual([expect.stringContaining(`fell more than ${BUFFER_BYTES} bytes behind`)]);
      expect(s.comments[s.comments.length - 1]).toBe(closing[0]);
      // What arrived is the start of the replay, in order, without a gap.
      const received = s.events.map((m) => m.data.data.n as number);
      expect(received.length).toBeGreaterThan(0);
      expect(received.length).toBeLessThan(6000);
      expect(received).toEqual(Array.from({ length: received.length }, (_, i) => i + 1));
      expect(closing[0]).toContain(s.events[s.events.length - 1].id);

      // Resuming from the last id goes on where it stopped.
      others.forEach((o) => o.close());
      const resumed = await stream(baseUrl, slow.test, {
        lastEventId: s.events[s.events.length - 1].id,
        query: 'types=account.updated',
      });
      const [next] = await resumed.waitFor(1);
      expect(next.data.data.n).toBe(received.length + 1);
    },
    60_000,
  );

  /** This file's app, with a small stream buffer and a short heartbeat (unset again for the apps of other files). */
  async function createAppWithSmallStreams(): Promise<TestContext> {
    process.env.EVENT_STREAM_BUFFER_BYTES = String(BUFFER_BYTES);
    process.env.EVENT_STREAM_HEARTBEAT_MS = String(HEARTBEAT_MS);
    try {
      return await createTestContext();
    } finally {
      delete process.env.EVENT_STREAM_BUFFER_BYTES;
      delete process.env.EVENT_STREAM_HEARTBEAT_MS;
    }
  }

  const stream = async (...args: Parameters<typeof openStream>) => {
    const s = await openStream(...args);
    open.push(s);
    return s;
  };
});

/** Bytes a stream of this file's app may hold for a reader that does not read. */
const BUFFER_BYTES = 16_384;
const HEARTBEAT_MS = 300;
