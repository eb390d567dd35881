import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

interface OwnedTable {
  name: string;
  /** Tenant-owned tables this one references (they must be emptied after it). */
  references: string[];
}

/**
 * Erases everything a tenant owns. The tables are discovered, not listed: every table of the
 * schema with a `tenant_id` column, emptied of the tenant's rows in an order that deletes
 * referencing rows before the rows they reference, then the tenant itself (whose ON DELETE
 * CASCADE catches rows that hang off tenant-owned rows without a tenant_id of their own, such as
 * delivery attempts). Tables added by later migrations are covered without a change here.
 * `app.erasing_tenant` lets the append-only ledger tables give up this tenant's rows.
 */
/** foreign_key_violation, serialization_failure, deadlock_detected. */
const RETRYABLE = new Set(['23503', '40001', '40P01']);
const ERASE_ATTEMPTS = 5;

@Injectable()
export class TenantEraser {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Returns the number of rows deleted per table (tables without rows of the tenant left out).
   * The tenant's own work may still be running while it is erased (an engine filling an order, a
   * job, a request log flush): a row it commits under a row already passed makes a later DELETE
   * fail on a foreign key (or deadlock), so the whole erase is tried again from the start.
   */
  async erase(tenantId: string): Promise<Record<string, number> | null> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.eraseOnce(tenantId);
      } catch (err) {
        const code = (err as { code?: string }).code;
        if (attempt >= ERASE_ATTEMPTS || !code || !RETRYABLE.has(code)) {
          throw err;
        }
      }
    }
  }

  private eraseOnce(tenantId: string): Promise<Record<string, number> | null> {
    return this.dataSource.transaction(async (manager) => {
      const locked = await manager.query(`SELECT "id" FROM "tenants" WHERE "id" = $1 FOR UPDATE`, [tenantId]);
      if (locked.length === 0) {
        return null;
      }
      await manager.query(`SELECT set_config('app.erasing_tenant', $1, true)`, [tenantId]);
      const deleted: Record<string, number> = {};
      for (const table of deletionOrder(await this.ownedTables(manager))) {
        const [, count] = (await manager.query(`DELETE FROM "${table}" WHERE "tenant_id" = $1`, [
          tenantId,
        ])) as [unknown, number];
        if (count > 0) {
          deleted[table] = count;
        }
      }
      await manager.query(`DELETE FROM "tenants" WHERE "id" = $1`, [tenantId]);
      return deleted;
    });
  }

  private async ownedTables(manager: EntityManager): Promise<OwnedTable[]> {
    const rows: Array<{ name: string; references: string[] | null }> = await manager.query(`
      SELECT c.relname::text AS "name",
             array_remove(array_agg(DISTINCT p.relname::text), NULL)::text[] AS "references"
        FROM pg_class c
        JOIN pg_namespace n ON n.oid = c.relnamespace
        JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'tenant_id' AND NOT a.attisdropped
        LEFT JOIN pg_constraint f ON f.conrelid = c.oid AND f.contype = 'f' AND f.confrelid <> c.oid
        LEFT JOIN pg_class p ON p.oid = f.confrelid
       WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND NOT c.relispartition
         AND c.relname <> 'tenants'
       GROUP BY c.relname
       ORDER BY c.relname`);
    return rows.map((r) => ({ name: r.name, references: r.references ?? [] }));
  }
}

/** Referencing tables before referenced ones (a topological order; a cycle keeps its name order). */
export function deletionOrder(tables: OwnedTable[]): string[] {
  const names = new Set(tables.map((t) => t.name));
  const referencedBy = new Map<string, number>(tables.map((t) => [t.name, 0]));
  for (const table of tables) {
    for (const ref of table.references) {
      if (names.has(ref)) {
        referencedBy.set(ref, (referencedBy.get(ref) ?? 0) + 1);
      }
    }
  }
  const order: string[] = [];
  const remaining = new Map(tables.map((t) => [t.name, t]));
  while (remaining.size > 0) {
    const ready = [...remaining.keys()].filter((name) => referencedBy.get(name) === 0);
    const next = ready.length > 0 ? ready : [[...remaining.keys()].sort()[0]];
    for (const name of next) {
      order.push(name);
      for (const ref of remaining.get(name)!.references) {
        if (referencedBy.has(ref)) {
          referencedBy.set(ref, (referencedBy.get(ref) ?? 0) - 1);
        }
      }
      remaining.delete(name);
    }
  }
  return order;
}
