import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { WriteBatch } from 'src/core/database/write-batch';
import { newUuid } from 'src/core/ids/ids';
import type { ScheduleInput } from 'src/core/scheduler/job-types';

export interface JobRow {
  id: string;
  tenant_id: string;
  livemode: boolean;
  kind: string;
  due_at: Date;
  payload: Record<string, unknown>;
  state: string;
  attempts: number;
}

const RUNNABLE = `"state" IN ('scheduled', 'queued')`;

const INSERT_JOB = `INSERT INTO scheduled_jobs (id, tenant_id, livemode, kind, dedupe_key, due_at, payload)
  VALUES ($1, $2, $3, $4, $5, $6, $7)
  ON CONFLICT (tenant_id, livemode, kind, dedupe_key) DO NOTHING
  RETURNING id`;

/** Every query on `scheduled_jobs`. */
@Injectable()
export class ScheduledJobsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** insert() as a statement of the caller's batch (a job with the same dedupe key is kept as it is). */
  insertInto(batch: WriteBatch, input: ScheduleInput): void {
    batch.add({
      sql: INSERT_JOB,
      params: this.insertParams(input),
      changes: {
        table: 'scheduled_jobs',
        key: `${input.tenantId}:${input.livemode}:${input.kind}:${input.dedupeKey}`,
      },
    });
  }

  private insertParams(input: ScheduleInput): unknown[] {
    return [
      newUuid(),
      input.tenantId,
      input.livemode,
      input.kind,
      input.dedupeKey,
      input.dueAt,
      JSON.stringify(input.payload),
    ];
  }

  /** Inserts the job unless one with the same dedupe key exists; returns the id of the row kept. */
  async insert(manager: EntityManager, input: ScheduleInput): Promise<{ id: string; created: boolean }> {
    const id = await this.insertIfAbsent(manager, input);
    if (id) {
      return { id, created: true };
    }
    const existing: Array<{ id: string }> = await manager.query(
      `SELECT id FROM scheduled_jobs WHERE tenant_id = $1 AND livemode = $2 AND kind = $3 AND dedupe_key = $4`,
      [input.tenantId, input.livemode, input.kind, input.dedupeKey],
    );
    return { id: existing[0].id, created: false };
  }

  /** The new job's id, or null when a job of that kind and dedupe key is already there. */
  async insertIfAbsent(manager: EntityManager, input: ScheduleInput): Promise<string | null> {
    const inserted: Array<{ id: string }> = await manager.query(INSERT_JOB, this.insertParams(input));
    return inserted[0]?.id ?? null;
  }

  /** insertIfAbsent() for many jobs in one statement; how many were new. */
  async insertManyIfAbsent(manager: EntityManager, inputs: ScheduleInput[]): Promise<number> {
    if (inputs.length === 0) {
      return 0;
    }
    const rows = inputs.map((input) => this.insertParams(input));
    const inserted: unknown[] = await manager.query(
      `INSERT INTO scheduled_jobs (id, tenant_id, livemode, kind, dedupe_key, due_at, payload)
       SELECT * FROM unnest($1::uuid[], $2::text[], $3::boolean[], $4::text[], $5::text[], $6::timestamptz[],
         $7::jsonb[])
       ON CONFLICT (tenant_id, livemode, kind, dedupe_key) DO NOTHING
       RETURNING id`,
      [0, 1, 2, 3, 4, 5, 6].map((column) => rows.map((row) => row[column])),
    );
    return inserted.length;
  }

  async cancel(
    manager: EntityManager,
    key: { tenantId: string; livemode: boolean; kind: string; dedupeKey: string },
  ): Promise<boolean> {
    const [, count]: [unknown, number] = await manager.query(
      `UPDATE scheduled_jobs SET state = 'canceled', finished_at = now()
        WHERE tenant_id = $1 AND livemode = $2 AND kind = $3 AND dedupe_key = $4 AND ${RUNNABLE}`,
      [key.tenantId, key.livemode, key.kind, key.dedupeKey],
    );
    return count > 0;
  }

  /**
   * Locks up to `limit` scheduled jobs due by their tenant's clock and marks them queued. Live mode
   * and test clocks following real time: due_at ≤ `now`. Frozen test clocks: due_at ≤ frozen_time
   * (before or after real time). Rows another relay holds are skipped.
   */
  async claimDue(manager: EntityManager, now: Date, limit: number): Promise<string[]> {
    const byRealTime: Array<{ id: string }> = await manager.query(
      `SELECT j.id FROM scheduled_jobs j
        WHERE j.state = 'scheduled' AND j.due_at <= $1
          AND (j.livemode OR NOT EXISTS (
                SELECT 1 FROM test_clocks c
                 WHERE c.tenant_id = j.tenant_id AND c.frozen_time IS NOT NULL AND c.frozen_time < j.due_at))
        ORDER BY j.due_at
        LIMIT $2
        FOR UPDATE OF j SKIP LOCKED`,
      [now, limit],
    );
    const ahead: Array<{ id: string }> = await manager.query(
      `SELECT j.id FROM scheduled_jobs j
         JOIN test_clocks c ON c.tenant_id = j.tenant_id AND c.frozen_time IS NOT NULL
        WHERE NOT j.livemode AND j.state = 'scheduled' AND j.due_at > $1 AND j.due_at <= c.frozen_time
        ORDER BY j.due_at
        LIMIT $2
        FOR UPDATE OF j SKIP LOCKED`,
      [now, limit],
    );
    const ids = [...byRealTime, ...ahead].map((r) => r.id);
    if (ids.length > 0) {
      await manager.query(
        `UPDATE scheduled_jobs SET state = 'queued', queued_at = now() WHERE id = ANY($1)`,
        [ids],
      );
    }
    return ids;
  }

  /** Queued jobs the queue seems to have lost (queued long ago, never finished): queued again. */
  async claimStale(manager: EntityManager, queuedBefore: Date, limit: number): Promise<string[]> {
    const [rows]: [Array<{ id: string }>, number] = await manager.query(
      `UPDATE scheduled_jobs SET queued_at = now()
        WHERE id IN (SELECT id FROM scheduled_jobs WHERE state = 'queued' AND queued_at < $1
                      ORDER BY queued_at LIMIT $2 FOR UPDATE SKIP LOCKED)
        RETURNING id`,
      [queuedBefore, limit],
    );
    return rows.map((r) => r.id);
  }

  /** Locks the job for a run; null when it is gone, done, failed for good or canceled. */
  async lockRunnable(manager: EntityManager, id: string): Promise<JobRow | null> {
    const rows: JobRow[] = await manager.query(
      `SELECT id, tenant_id, livemode, kind, due_at, payload, state, attempts
         FROM scheduled_jobs WHERE id = $1 AND ${RUNNABLE} FOR UPDATE`,
      [id],
    );
    return rows[0] ?? null;
  }

  async markDone(manager: EntityManager, id: string): Promise<void> {
    await manager.query(
      `UPDATE scheduled_jobs SET state = 'done', finished_at = now(), attempts = attempts + 1 WHERE id = $1`,
      [id],
    );
  }

  /** A queued job found not yet due (its test clock was reset to real time): back to waiting. */
  async unqueue(manager: EntityManager, id: string): Promise<void> {
    await manager.query(`UPDATE scheduled_jobs SET state = 'scheduled', queued_at = NULL WHERE id = $1`, [
      id,
    ]);
  }

  async recordFailure(id: string, error: string, final: boolean): Promise<void> {
    await this.dataSource.query(
      `UPDATE scheduled_jobs
          SET attempts = attempts + 1, last_error = $2,
              state = CASE WHEN $3 THEN 'failed' ELSE state END,
              finished_at = CASE WHEN $3 THEN now() ELSE finished_at END
        WHERE id = $1 AND ${RUNNABLE}`,
      [id, error.slice(0, 2000), final],
    );
  }

  /** The tenant's earliest runnable job due at or before `upTo`, leaving out `exclude`. */
  async nextDue(
    scope: { tenantId: string; livemode: boolean },
    upTo: Date,
    exclude: string[],
  ): Promise<{ id: string; due_at: Date } | null> {
    const rows: Array<{ id: string; due_at: Date }> = await this.dataSource.query(
      `SELECT id, due_at FROM scheduled_jobs
        WHERE tenant_id = $1 AND livemode = $2 AND ${RUNNABLE} AND due_at <= $3 AND NOT (id = ANY($4))
        ORDER BY due_at, created_at, id
        LIMIT 1`,
      [scope.tenantId, scope.livemode, upTo, exclude],
    );
    return rows[0] ?? null;
  }
}
