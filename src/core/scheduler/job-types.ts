import type { EntityManager } from 'typeorm';

/** What a module asks for: run `kind` with `payload` when the tenant's clock reaches `dueAt`. */
export interface ScheduleInput {
  tenantId: string;
  livemode: boolean;
  kind: string;
  /** In the tenant's clock time (`ClockService.now` plus a delay, or a job's `now` plus a delay). */
  dueAt: Date;
  /** Ids only; the handler reads current state itself. */
  payload: Record<string, unknown>;
  /** Unique per tenant, mode and kind: a second schedule with the same key is ignored. */
  dedupeKey: string;
}

/** A job as its handler receives it. */
export interface DueJob {
  id: string;
  tenantId: string;
  livemode: boolean;
  kind: string;
  dueAt: Date;
  payload: Record<string, unknown>;
  /**
   * The clock time the job runs at: real time (live, or a test clock following real time), the
   * frozen time, or, while a test clock is being moved, the moment the clock passes `dueAt`. Use it
   * for every timestamp the job writes (settled_at, journal effective time, follow-up due times).
   */
  now: Date;
  /** How many runs failed before this one. */
  attempts: number;
}

/**
 * Runs one kind of job inside the transaction that also marks the job done: its writes and the
 * done mark commit together, so a crash before the commit leaves the job to run again and a crash
 * after it never repeats it. Still write handlers idempotent (conditional state transitions,
 * unique journal keys): a handler may also find its work already done by another path.
 */
export interface JobHandler {
  run(manager: EntityManager, job: DueJob): Promise<void>;
}
