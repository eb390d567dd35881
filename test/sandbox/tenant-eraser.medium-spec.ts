import type { QueryRunner } from 'typeorm';
import { TenantEraser } from 'src/modules/sandbox-admin/tenant-eraser.service';
import { madeBeforeAll } from '../support/made-before-all';
import { createServiceContext, describeLocal } from '../support/service-context';

/**
 * The eraser meets the tenant's own work still running (an engine fill, a job, a log flush): a
 * row committed under one the erase already passed, or a lock taken in the opposite order. The
 * erase must then start again and still leave nothing of the tenant behind.
 */
describeLocal('TenantEraser against the tenant’s own running work', () => {
  const ctx = madeBeforeAll('The service context', () => createServiceContext([]));
  const eraser = madeBeforeAll('The eraser', () => Promise.resolve(new TenantEraser(ctx.dataSource)));
  beforeAll(() => createRaceTables());
  let work: QueryRunner;
  beforeEach(() => (work = ctx.dataSource.createQueryRunner()).connect());
  afterEach(async () => {
    if (work.isTransactionActive) {
      await work.rollbackTransaction();
    }
    await work.release();
  });

  it('starts again when a child row is committed under a parent after the children were emptied', async () => {
    const { tenantId, parentId } = await tenantWithParent();
    // A lock that lets the work reference the parent (KEY SHARE) but holds the erase's DELETE of it.
    await work.startTransaction();
    await work.query(`SELECT 1 FROM "erase_race_parents" WHERE "id" = $1 FOR NO KEY UPDATE`, [parentId]);
    const erased = eraser.erase(tenantId);
    erased.catch(() => undefined);
    await eraseWaitsOn('erase_race_parents');
    // The tenant's work commits a child row: the erase has already emptied erase_race_children.
    await ctx.dataSource.query(
      `INSERT INTO "erase_race_children" ("id", "tenant_id", "parent_id") VALUES ($1, $2, $3)`,
      [`c_${tenantId}`, tenantId, parentId],
    );
    await work.commitTransaction();
    // The first attempt's DELETE of the parent meets the new child (23503); the second erases both.
    expect(await erased).toMatchObject({ erase_race_children: 1, erase_race_parents: 1 });
    expect(await leftOf(tenantId)).toEqual([0, 0, 0]);
  });

  it('starts again when it is the victim of a deadlock with the tenant’s work', async () => {
    const { tenantId, parentId } = await tenantWithParent();
    const childId = `c_${tenantId}`;
    await ctx.dataSource.query(
      `INSERT INTO "erase_race_children" ("id", "tenant_id", "parent_id") VALUES ($1, $2, $3)`,
      [childId, tenantId, parentId],
    );
    await work.startTransaction();
    // The work detects deadlocks late, so the erase (waiting first, checking after 1 s) is the victim.
    await work.query(`SET LOCAL deadlock_timeout = '20s'`);
    await work.query(`UPDATE "erase_race_parents" SET "note" = 'work' WHERE "id" = $1`, [parentId]);
    const erased = eraser.erase(tenantId);
    erased.catch(() => undefined);
    // The erase holds the child row (deleted) and waits for the parent the work holds.
    await eraseWaitsOn('erase_race_parents');
    // The work now wants the child row: a cycle, and the erase is rolled back with 40P01.
    await work.query(`UPDATE "erase_race_children" SET "note" = 'work' WHERE "id" = $1`, [childId]);
    await work.commitTransaction();
    expect(await erased).toMatchObject({ erase_race_children: 1, erase_race_parents: 1 });
    expect(await leftOf(tenantId)).toEqual([0, 0, 0]);
  });

  async function createRaceTables(): Promise<void> {
    // Tenant-owned tables of a later module: children reference parents, no cascade, so the
    // eraser empties erase_race_children before erase_race_parents. Like "events", they do not
    // reference "tenants" (whose row the erase locks first, which would hold any such insert).
    await ctx.dataSource.query(`
      CREATE TABLE "erase_race_parents" ("id" text PRIMARY KEY, "tenant_id" text NOT NULL, "note" text);
      CREATE TABLE "erase_race_children" ("id" text PRIMARY KEY, "tenant_id" text NOT NULL,
        "parent_id" text NOT NULL REFERENCES "erase_race_parents"("id"), "note" text)`);
  }

  async function tenantWithParent(): Promise<{ tenantId: string; parentId: string }> {
    const tenantId = await ctx.createTenant();
    const parentId = `p_${tenantId}`;
    await ctx.dataSource.query(`INSERT INTO "erase_race_parents" ("id", "tenant_id") VALUES ($1, $2)`, [
      parentId,
      tenantId,
    ]);
    return { tenantId, parentId };
  }

  /** Resolves once the erase's DELETE on the given table waits for a row lock. */
  async function eraseWaitsOn(table: string): Promise<void> {
    for (let i = 0; i < 600; i++) {
      const rows: unknown[] = await ctx.dataSource.query(
        `SELECT 1 FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE $1`,
        [`DELETE FROM "${table}"%`],
      );
      if (rows.length > 0) {
        return;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`the erase never waited on ${table}`);
  }

  async function leftOf(tenantId: string): Promise<number[]> {
    const counts: number[] = [];
    for (const table of ['erase_race_children', 'erase_race_parents', 'tenants']) {
      const column = table === 'tenants' ? 'id' : 'tenant_id';
      const [{ n }] = await ctx.dataSource.query(
        `SELECT count(*)::int AS n FROM "${table}" WHERE "${column}" = $1`,
        [tenantId],
      );
      counts.push(n);
    }
    return counts;
  }
});
