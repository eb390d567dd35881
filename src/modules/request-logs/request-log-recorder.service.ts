import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { NextFunction, Response } from 'express';
import { DataSource } from 'typeorm';
import { AppConfig } from 'src/core/config/app-config.service';
import { ClockService } from 'src/core/clock/clock.service';
import { JobScheduler } from 'src/core/scheduler/job-scheduler.service';
import { PURGE_REQUEST_LOGS_JOB } from 'src/modules/request-logs/request-log-purge';
import { requestLogRow, RequestLogRow, RequestWithOutcome } from 'src/modules/request-logs/request-log-row';

/** A flush starts early once this many rows wait. */
const FLUSH_ROWS = 200;
/** Rows kept while the database is unreachable; older ones are dropped rather than grow memory. */
const MAX_BUFFERED = 20_000;
const DAY_MS = 86_400_000;

/**
 * Records requests off the request path: the `finish` listener only builds a row and pushes it
 * into a buffer; a timer (REQUEST_LOG_FLUSH_MS, 500 ms by default) or a full batch writes the
 * buffer with one multi-row INSERT. A failed write is logged and its rows dropped: losing log
 * rows must never fail or slow requests.
 */
@Injectable()
export class RequestLogRecorder implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(RequestLogRecorder.name);
  private buffer: RequestLogRow[] = [];
  private flushing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** (tenant, mode, day) whose purge job this process already scheduled. */
  private readonly purgeScheduled = new Set<string>();

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly clock: ClockService,
    private readonly scheduler: JobScheduler,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.flush(), this.config.get('REQUEST_LOG_FLUSH_MS'));
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
    await this.flush();
  }

  /** Express middleware: one `finish` listener per /v1 request. */
  middleware() {
    return (req: RequestWithOutcome, res: Response, next: NextFunction): void => {
      if (!req.url.startsWith('/v1/')) {
        next();
        return;
      }
      const startedAt = Date.now();
      const start = process.hrtime.bigint();
      res.once('finish', () => {
        const row = requestLogRow(req, res, startedAt, Number(process.hrtime.bigint() - start) / 1e6);
        if (row) {
          this.push(row);
        }
      });
      next();
    };
  }

  push(row: RequestLogRow): void {
    if (this.buffer.length >= MAX_BUFFERED) {
      this.buffer.shift();
    }
    this.buffer.push(row);
    if (this.buffer.length >= FLUSH_ROWS) {
      void this.flush();
    }
  }

  /** Writes what is buffered; concurrent calls wait for the same write. */
  flush(): Promise<void> {
    if (this.flushing) {
      return this.flushing;
    }
    if (this.buffer.length === 0) {
      return Promise.resolve();
    }
    this.flushing = this.writeAll().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  private async writeAll(): Promise<void> {
    while (this.buffer.length > 0) {
      const rows = this.buffer.splice(0, 1000);
      try {
        await this.insert(rows);
        await this.schedulePurges(rows);
      } catch (err) {
        this.logger.warn(`${rows.length} request log rows not stored: ${(err as Error).message}`);
      }
    }
  }

  /**
   * One statement for the whole batch, the rows as one JSON parameter: a single JSON.stringify
   * is the cheapest way to hand many rows to PostgreSQL from this process (the request path's
   * process), far cheaper than one array parameter per column.
   */
  private async insert(rows: RequestLogRow[]): Promise<void> {
    const json = JSON.stringify(rows);
    await this.dataSource.query(
      `INSERT INTO "request_logs"
         ("id", "tenant_id", "livemode", "api_key_id", "investor_id", "method", "path", "query", "status",
          "duration_ms", "error_code", "error", "idempotency_key", "idempotent_replayed", "legacy", "created_at")
       SELECT "id", "tenant_id", "livemode", "api_key_id", "investor_id", "method", "path", "query", "status",
              "duration_ms", "error_code", "error", "idempotency_key", "idempotent_replayed", "legacy",
              to_timestamp("created_at" / 1000.0)
       FROM jsonb_to_recordset($1::jsonb) AS r(
         "id" text, "tenant_id" text, "livemode" boolean, "api_key_id" text, "investor_id" text, "method" text,
         "path" text, "query" jsonb, "status" int, "duration_ms" int, "error_code" text, "error" jsonb,
         "idempotency_key" text, "idempotent_replayed" boolean, "legacy" boolean, "created_at" float8)
       ON CONFLICT ("id") DO NOTHING`,
      [json],
    );
  }

  /**
   * Once a day per tenant and mode that logged requests, a purge job on the scheduler (due a day
   * later on the tenant's clock; what it deletes is decided by real time, so moving a test clock
   * never erases the sandbox's logs early).
   */
  private async schedulePurges(rows: RequestLogRow[]): Promise<void> {
    const day = Math.floor(Date.now() / DAY_MS);
    for (const row of rows) {
      const key = `${row.tenant_id}:${row.livemode}:${day}`;
      if (this.purgeScheduled.has(key)) {
        continue;
      }
      this.purgeScheduled.add(key);
      const scope = { tenantId: row.tenant_id, livemode: row.livemode };
      await this.scheduler.schedule(this.dataSource.manager, {
        ...scope,
        kind: PURGE_REQUEST_LOGS_JOB,
        dueAt: new Date((await this.clock.now(scope)).getTime() + DAY_MS),
        payload: {},
        dedupeKey: `day-${day}`,
      });
    }
  }
}
