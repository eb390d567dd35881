import { Logger } from '@nestjs/common';
import type { Pool } from 'pg';
import { requestLogColumns, RequestLogColumns } from 'src/modules/request-logs/request-log-row';
import { insertInParts } from 'src/modules/request-logs/request-log-statements';
import { createServiceContext, describeLocal, ServiceContext } from '../support/service-context';

describeLocal('Request log batches', () => {
  let ctx: ServiceContext;

  beforeAll(async () => {
    ctx = await createServiceContext([]);
  });

  afterAll(() => ctx?.close());

  it('a row PostgreSQL refuses loses only itself, not the rows of its tenant flushed beside it', async () => {
    const tenantId = await ctx.createTenant();
    const rows = ['req_batch_before', 'req_batch_refused', 'req_batch_after'].map((id) =>
      rowOf(tenantId, id),
    );
    // A duration past PostgreSQL's integer: the one row its insert refuses.
    rows[1][9] = 3_000_000_000;
    const warnings: string[] = [];
    const logger = new Logger('RequestLogBatchesSpec');
    jest.spyOn(logger, 'warn').mockImplementation((message: unknown) => void warnings.push(String(message)));

    const written = await insertInParts(pool(), rows, true, logger);

    const stored: Array<{ id: string }> = await ctx.dataSource.query(
      `SELECT "id" FROM "request_logs" WHERE "tenant_id" = $1 ORDER BY "id"`,
      [tenantId],
    );
    expect(stored.map((r) => r.id)).toEqual(['req_batch_after', 'req_batch_before']);
    expect(written).toEqual([{ tenant_id: tenantId, livemode: false }]);
    expect(warnings).toHaveLength(2);
    expect(warnings[1]).toMatch(/^1 request log rows not stored \(.*integer.*\): req_batch_refused$/);
  });

  const pool = () => (ctx.dataSource.driver as unknown as { master: Pool }).master;

  function rowOf(tenantId: string, id: string): RequestLogColumns {
    return requestLogColumns(
      {
        id,
        scope: null,
        publicKey: null,
        method: 'GET',
        originalUrl: '/v1/investors?limit=5',
        status: 200,
        durationMs: 3,
        finishedAt: Date.now(),
        error: undefined,
        idempotencyKey: undefined,
        replayed: false,
        legacy: false,
      },
      { tenantId, livemode: false, keyId: 'apk_batch_test', investorId: null, method: 'basic' },
    );
  }
});
