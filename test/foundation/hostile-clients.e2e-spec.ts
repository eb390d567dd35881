import { connect } from 'node:net';
import { hashSecret } from 'src/core/tenancy/secrets';
import { basic, createTestContext, isRemote, itLocal, listeningUrl } from '../support/app';
import { madeBeforeAll } from '../support/made-before-all';
import { expectSvcError } from '../support/errors';

/**
 * Hostile clients: credentials with control characters, failures that must cost the same whether
 * the public key exists or not, and a header block that never ends.
 */
describe('Hostile clients', () => {
  // This file's app closes an unfinished header block after 1 s (the deployment default is 10 s).
  const ctx = madeBeforeAll('The test context', async () => {
    process.env.HTTP_HEADERS_TIMEOUT_MS = '1000';
    try {
      return await createTestContext();
    } finally {
      delete process.env.HTTP_HEADERS_TIMEOUT_MS;
    }
  });

  it.each(['pk_test_x\u0000', 'pk_test_\u0001x', 'pk_\u007ftest', '\u001b[31mpk'])(
    'a username with a control character (%j) answers 401 like any bad credential',
    async (publicKey) => {
      expectSvcError(await withBasic(`${publicKey}:secret`), 'SVC-401-001');
    },
  );

  // Local only: a remote sandbox's failed-login limits are its deployer's settings (qa-remote.sh
  // lifts them, as the whole suite fails logins from one address), not the default 20 a minute.
  itLocal('a NUL in the username counts in the failed-login limit: 20 answer 401, then 429', async () => {
    const statuses: number[] = [];
    const started = Date.now();
    while (statuses.length < 60 && !statuses.includes(429)) {
      statuses.push((await withBasic('pk_test_limited\u0000:secret')).status);
    }
    // A burst of 20, refilled at one every 3 s while these run (slowly, against a loaded remote
    // sandbox): past the burst and what the refill added, failures answer 429.
    const refilled = Math.ceil((Date.now() - started) / 3000);
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(401));
    expect(statuses.indexOf(429)).toBeGreaterThanOrEqual(20);
    expect(statuses.indexOf(429)).toBeLessThanOrEqual(20 + refilled);
  });

  itLocal('a refusal answered from the cache reads the key afresh, as an unknown key costs', async () => {
    const own = await ctx.createTenant();
    expect(
      (await ctx.http().get('/v1/webhooks/event-types').set('Authorization', basic(own.test))).status,
    ).toBe(200);
    // The secret changes in the database behind this process's cache (as another process would).
    const rotated = `sk_test_${'r'.repeat(40)}`;
    await ctx.dataSource.query(`UPDATE api_keys SET secret_hash = $1 WHERE public_key = $2`, [
      hashSecret(rotated),
      own.test.publicKey,
    ]);
    // The cached key refuses the new secret; the refusal reads the key, which admits it at once.
    const res = await ctx
      .http()
      .get('/v1/webhooks/event-types')
      .set('Authorization', basic({ ...own.test, secret: rotated }));
    expect(res.status).toBe(200);
    expectSvcError(
      await ctx.http().get('/v1/webhooks/event-types').set('Authorization', basic(own.test)),
      'SVC-401-001',
    );
  });

  it(
    'an unfinished header block is answered 408 and closed within the headers timeout',
    async () => {
      const url = new URL(await listeningUrl(ctx));
      const startedAt = Date.now();
      const answer = await new Promise<string>((resolve, reject) => {
        let received = '';
        const socket = connect(Number(url.port || 80), url.hostname, () => {
          socket.write('GET /health/live HTTP/1.1\r\nHost: x\r\nX-Slow: ');
        });
        socket.on('data', (chunk) => (received += chunk.toString()));
        socket.on('close', () => resolve(received));
        socket.on('error', reject);
        // Node's default would hold it past 60 s: the test's own timeout then fails it.
      });
      expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 408 Request Timeout');
      process.stdout.write(`unfinished header block closed after ${Date.now() - startedAt} ms\n`);
    },
    isRemote ? 60_000 : 30_000,
  );

  const withBasic = (userAndPassword: string) =>
    ctx
      .http()
      .get('/v1/webhooks/event-types')
      .set('Authorization', `Basic ${Buffer.from(userAndPassword).toString('base64')}`);
});
