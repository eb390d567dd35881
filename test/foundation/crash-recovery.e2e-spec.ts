import { basic, itLocal, useTenant, useTestContext } from '../support/app';
import { investorBody } from '../investors/fixtures';
import { ApiProcess, startApiProcess } from './support/api-process';

// Short leases: a key held by the killed process is free again after this (production: 30 s).
const LEASE_MS = 3000;
process.env.IDEMPOTENCY_LEASE_MS = String(LEASE_MS);

const REQUESTS = 150;
const IN_FLIGHT = 30;
/** kill -9 once this many responses came back, with IN_FLIGHT requests still running. */
const KILL_AFTER = 40;

describe('Idempotency survives kill -9 of the API under load', () => {
  const ctx = useTestContext();
  const tenant = useTenant(ctx);
  const processes: ApiProcess[] = [];
  afterAll(() => Promise.all(processes.map((p) => p.kill())));

  itLocal(
    'committed keys replay their response, every other key is free within the lease, each object exists once',
    async () => {
      const attempts: Attempt[] = Array.from({ length: REQUESTS }, (_, i) => ({
        key: `crash-${i}`,
        body: investorBody({
          contact: { email_address: `crash.${i}.${tenant.tenantId.slice(4, 12)}@example.com` },
        }),
        before: 'unsent',
      }));
      const first = await start();

      // Load: IN_FLIGHT requests at a time until the process is killed mid-request.
      let answered = 0;
      let next = 0;
      let killedAt = 0;
      let inFlightAtKill = 0;
      let running = 0;
      await new Promise<void>((done) => {
        const launch = () => {
          while (!killedAt && running < IN_FLIGHT && next < attempts.length) {
            const attempt = attempts[next++];
            running++;
            attempt.before = 'lost';
            createInvestor(first.baseUrl, attempt)
              .then(
                (answer) => {
                  attempt.before = answer;
                  answered++;
                },
                () => undefined,
              )
              .finally(() => {
                running--;
                if (answered >= KILL_AFTER && !killedAt) {
                  killedAt = Date.now();
                  inFlightAtKill = running;
                  void first.kill();
                }
                if (running === 0 && (killedAt || next >= attempts.length)) {
                  done();
                }
                launch();
              });
          }
        };
        launch();
      });
      expect(killedAt).toBeGreaterThan(0);
      expect(inFlightAtKill).toBeGreaterThan(0);
      const answeredBefore = attempts.filter((a) => typeof a.before === 'object');
      // Every answer before the kill created its investor (a failure lists the others, bodies and all).
      expect(answeredBefore.map((a) => a.before as Answer).filter((answer) => answer.status !== 201)).toEqual(
        [],
      );
      const lost = attempts.filter((a) => a.before === 'lost');
      expect(lost.length).toBeGreaterThan(0);

      // Right after the kill, the keys it held are in flight, as a crash leaves them.
      const [{ held }] = await ctx.dataSource.query(
        `SELECT count(*)::int AS held FROM idempotency_keys WHERE tenant_id = $1 AND state = 'in_flight'`,
        [tenant.tenantId],
      );

      // Another API process (this test's own) serves retries at once: held keys answer 409-003
      // until their lease runs out, then each is either replayed (its effect had committed) or free.
      const deadline = killedAt + 30_000;
      const freedAfter: number[] = [];
      const afterKill = new Map<string, Answer>();
      await Promise.all(
        [...answeredBefore, ...lost].map(async (attempt) => {
          const answer = await retryUntilFree(attempt, deadline).catch(() => undefined);
          if (answer) {
            afterKill.set(attempt.key, answer);
            freedAfter.push(Date.now() - killedAt);
          }
        }),
      );
      for (const attempt of answeredBefore) {
        const before = attempt.before as Answer;
        expect([attempt.key, afterKill.get(attempt.key)]).toEqual([
          attempt.key,
          { status: 201, replayed: true, body: before.body },
        ]);
      }
      const committedUnanswered = lost.filter((a) => afterKill.get(a.key)?.replayed === true).length;
      for (const attempt of lost) {
        expect([attempt.key, afterKill.get(attempt.key)?.status]).toEqual([attempt.key, 201]);
      }

      // The killed process restarted: every key replays the same response; unsent keys create once.
      const restarted = await start();
      const verify = async (attempt: Attempt) => {
        const known = afterKill.get(attempt.key);
        const answer = await createInvestor(restarted.baseUrl, attempt);
        expect([attempt.key, answer.status]).toEqual([attempt.key, 201]);
        if (known) {
          expect([attempt.key, answer.replayed, answer.body.id]).toEqual([attempt.key, true, known.body.id]);
        }
        const listed = await fetch(
          `${restarted.baseUrl}/v1/investors?email=${encodeURIComponent(attempt.body.contact.email_address)}`,
          { headers: { authorization: basic(tenant.test) } },
        );
        const ids = ((await listed.json()) as { data: Array<{ id: string }> }).data.map((i) => i.id);
        expect([attempt.key, ids]).toEqual([attempt.key, [answer.body.id]]);
      };
      for (let i = 0; i < attempts.length; i += 10) {
        await Promise.all(attempts.slice(i, i + 10).map(verify));
      }
      const [{ stuck }] = await ctx.dataSource.query(
        `SELECT count(*)::int AS stuck FROM idempotency_keys WHERE tenant_id = $1 AND state = 'in_flight'`,
        [tenant.tenantId],
      );
      expect(stuck).toBe(0);
      const slowest = Math.max(...freedAfter);
      expect(slowest).toBeLessThan(30_000);
      process.stderr.write(
        `crash test: ${REQUESTS} keys, ${answeredBefore.length} answered before kill -9, ${lost.length} cut ` +
          `(${committedUnanswered} of them had committed: replayed), ${inFlightAtKill} in flight, ${held} keys ` +
          `held at the kill, every key answered again ${slowest} ms after the kill (lease ${LEASE_MS} ms), ` +
          `0 stuck, 0 duplicates\n`,
      );
    },
    240_000,
  );

  const start = async () => {
    const api = await startApiProcess({
      IDEMPOTENCY_LEASE_MS: String(LEASE_MS),
      MIGRATE_ON_START: 'false',
      LOG_LEVEL: 'silent',
    });
    processes.push(api);
    return api;
  };

  async function createInvestor(baseUrl: string, attempt: Attempt): Promise<Answer> {
    const res = await fetch(`${baseUrl}/v1/investors`, {
      method: 'POST',
      headers: {
        authorization: basic(tenant.test),
        'content-type': 'application/json',
        'idempotency-key': attempt.key,
      },
      body: JSON.stringify(attempt.body),
    });
    return {
      status: res.status,
      replayed: res.headers.get('idempotent-replayed') === 'true',
      body: (await res.json()) as Record<string, any>,
    };
  }

  /** The same request through this test's own in-process API (another process on the same database). */
  async function createInvestorInProcess(attempt: Attempt): Promise<Answer> {
    const res = await ctx
      .http()
      .post('/v1/investors')
      .set('Authorization', basic(tenant.test))
      .set('Idempotency-Key', attempt.key)
      .send(attempt.body);
    return { status: res.status, replayed: res.headers['idempotent-replayed'] === 'true', body: res.body };
  }

  /**
   * Retries while the key is still held (409 SVC-409-003), until it answers otherwise or the
   * deadline. Dozens of keys polled at once can spend the API key's rate limit: a 429 is waited out.
   */
  async function retryUntilFree(attempt: Attempt, deadline: number): Promise<Answer> {
    for (;;) {
      const answer = await createInvestorInProcess(attempt);
      const code = answer.body.error?.code as string | undefined;
      if ((code !== 'SVC-409-003' && code !== 'SVC-429-001') || Date.now() > deadline) {
        return answer;
      }
      await new Promise((resolve) => setTimeout(resolve, code === 'SVC-429-001' ? 500 : 100));
    }
  }
});

interface Answer {
  status: number;
  replayed: boolean;
  body: Record<string, any>;
}

interface Attempt {
  key: string;
  body: Record<string, any>;
  /** Before the kill: the answer, 'lost' (connection cut by the kill) or 'unsent'. */
  before: Answer | 'lost' | 'unsent';
}
