import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { CLOCK_CHANNEL, ClockState, encodeClockState } from 'src/core/clock/clock-scope';

interface ClockRow {
  tenant_id: string;
  frozen_time: Date | null;
  version: string;
}

const toState = (row: ClockRow): ClockState => ({
  tenantId: row.tenant_id,
  frozenTime: row.frozen_time,
  version: Number(row.version),
});

/** The `test_clocks` table: reads, and changes announced to every process in the same transaction. */
@Injectable()
export class TestClockRepository {
  constructor(private readonly dataSource: DataSource) {}

  async find(tenantId: string, manager: EntityManager = this.dataSource.manager): Promise<ClockState | null> {
    const rows: ClockRow[] = await manager.query(
      'SELECT tenant_id, frozen_time, version FROM test_clocks WHERE tenant_id = $1',
      [tenantId],
    );
    return rows[0] ? toState(rows[0]) : null;
  }

  /** Every clock that was ever set (a process loads them at start). */
  async all(): Promise<ClockState[]> {
    const rows: ClockRow[] = await this.dataSource.query(
      'SELECT tenant_id, frozen_time, version FROM test_clocks',
    );
    return rows.map(toState);
  }

  /**
   * Sets the clock and notifies every listening process; the notification is delivered when the
   * transaction commits, and not at all if it rolls back.
   */
  async set(manager: EntityManager, tenantId: string, frozenTime: Date | null): Promise<ClockState> {
    const rows: ClockRow[] = await manager.query(
      `INSERT INTO test_clocks (tenant_id, frozen_time, version, updated_at) VALUES ($1, $2, 1, now())
       ON CONFLICT (tenant_id) DO UPDATE
         SET frozen_time = EXCLUDED.frozen_time, version = test_clocks.version + 1, updated_at = now()
       RETURNING tenant_id, frozen_time, version`,
      [tenantId, frozenTime],
    );
    const state = toState(rows[0]);
    await manager.query('SELECT pg_notify($1, $2)', [CLOCK_CHANNEL, encodeClockState(state)]);
    return state;
  }
}
