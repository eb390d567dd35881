import type { INestApplication } from '@nestjs/common';
import { RequestLogRecorder } from 'src/modules/request-logs/request-log-recorder.service';
import type { CapturedRequest } from 'src/modules/request-logs/request-log-row';
import { adminToken } from '../support/remote';
import { TestTenant, useTenant, useTestContext } from '../support/app';
import { madeBeforeAll } from '../support/made-before-all';
import { describeLocal } from '../support/service-context';

/**
 * Batches the recorder flushes holding rows PostgreSQL would refuse: one such row, or a tenant
 * erased since its requests were answered, must not cost the other rows of the batch.
 */
describeLocal('RequestLogRecorder flushing a batch with rows it cannot store as they are', () => {
  const ctx = useTestContext();
  const recorder = madeBeforeAll('The recorder', () =>
    Promise.resolve((ctx.app as INestApplication).get(RequestLogRecorder)),
  );
  const kept = useTenant(ctx);

  it('stores rows carrying NUL and lone surrogates anywhere, those characters replaced by U+FFFD', async () => {
    // 511 characters: the path's 512-character cut falls between the halves of the emoji.
    const longPath = `/v1/investors/${'x'.repeat(497)}`;
    const hostile = captured(kept, {
      method: 'G\u0000ET',
      originalUrl: `${longPath}\u{1F600}?status=a\u0000b&limit=\ud800`,
      status: 400,
      error: {
        code: 'SVC-400-001',
        message: 'bad \udc00 value\u0000',
        details: [{ ['k\ud800']: ['\udbff'] }],
      },
      idempotencyKey: 'key\u0000\ud83d',
    });
    const ordinary = captured(kept);
    recorder.push(hostile);
    recorder.push(ordinary);
    await recorder.flush();

    expect(await storedIds([hostile.id, ordinary.id])).toEqual([hostile.id, ordinary.id].sort());
    const [row] = await ctx.dataSource.query(
      `SELECT "method", "path", "query", "error", "idempotency_key" FROM "request_logs" WHERE "id" = $1`,
      [hostile.id],
    );
    expect(row).toEqual({
      method: 'G\ufffdET',
      path: `${longPath}\ufffd`,
      query: { status: 'a\ufffdb', limit: '\ufffd' },
      error: {
        code: 'SVC-400-001',
        message: 'bad \ufffd value\ufffd',
        details: [{ ['k\ufffd']: ['\ufffd'] }],
      },
      idempotency_key: 'key\ufffd\ufffd',
    });
  });

  it('drops the rows of a tenant erased through the admin API, storing and purging the others', async () => {
    const erased = await ctx.createTenant();
    const deleted = await ctx
      .http()
      .delete(`/v1/sandbox/tenants/${erased.tenantId}`)
      .set('Authorization', `Bearer ${adminToken()}`);
    expect(deleted.status).toBe(200);
    // A tenant of its own, so no earlier flush has scheduled its purge job yet.
    const survivor = await ctx.createTenant();
    const rows = [captured(erased), captured(survivor), captured(erased), captured(survivor)];
    for (const row of rows) {
      recorder.push(row);
    }
    await recorder.flush();

    expect(await storedIds(rows.map((r) => r.id))).toEqual([rows[1].id, rows[3].id].sort());
    const jobs: Array<{ tenant_id: string }> = await ctx.dataSource.query(
      `SELECT "tenant_id" FROM "scheduled_jobs" WHERE "kind" = 'request_logs.purge' AND "tenant_id" = ANY($1)`,
      [[erased.tenantId, survivor.tenantId]],
    );
    expect(jobs.map((j) => j.tenant_id)).toEqual([survivor.tenantId]);
  });

  it('stores the batch around a refused request whose named public key cannot even be looked up', async () => {
    // Refused before authentication: only the public key its Authorization header named, with a NUL.
    const unreadableKey = captured(kept, { scope: null, publicKey: 'pk_test_\u0000x', status: 401 });
    const knownKey = captured(kept, { scope: null, publicKey: kept.test.publicKey, status: 401 });
    const ordinary = captured(kept);
    for (const row of [unreadableKey, knownKey, ordinary]) {
      recorder.push(row);
    }
    await recorder.flush();

    expect(await storedIds([unreadableKey.id, knownKey.id, ordinary.id])).toEqual(
      [knownKey.id, ordinary.id].sort(),
    );
  });

  let sequence = 0;
  function captured(tenant: TestTenant, overrides: Partial<CapturedRequest> = {}): CapturedRequest {
    sequence += 1;
    return {
      id: `req_recorder_${process.pid}_${sequence}`,
      scope: {
        tenantId: tenant.tenantId,
        livemode: false,
        keyId: tenant.test.id,
        investorId: null,
        method: 'basic',
      },
      publicKey: null,
      method: 'GET',
      originalUrl: '/v1/webhooks',
      status: 200,
      durationMs: 1,
      finishedAt: Date.now(),
      error: undefined,
      idempotencyKey: undefined,
      replayed: false,
      legacy: false,
      ...overrides,
    };
  }

  async function storedIds(ids: string[]): Promise<string[]> {
    const rows: Array<{ id: string }> = await ctx.dataSource.query(
      `SELECT "id" FROM "request_logs" WHERE "id" = ANY($1) ORDER BY "id"`,
      [ids],
    );
    return rows.map((r) => r.id);
  }
});
