import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { AppConfig } from 'src/core/config/app-config.service';
import { ClockService } from 'src/core/clock/clock.service';
import { JobScheduler } from 'src/core/scheduler/job-scheduler.service';
import { PURGE_REQUEST_LOGS_JOB } from 'src/modules/request-logs/request-log-purge';
import { basicCredentials } from 'src/core/auth/basic-credentials';
import { CredentialCache } from 'src/core/auth/credential-cache';
import type { Principal } from 'src/core/auth/principal';
import type { FinishedRequestHandler } from 'src/core/http/request-entry';
import {
  CapturedRequest,
  requestLogColumns,
  RequestLogColumns,
  RequestLogScope,
} from 'src/modules/request-logs/request-log-row';

/** What the guards and the error renderer leave on a request for its request log row. */
interface RequestWithOutcome {
  id?: string;
  url: string;
  method: string;
  originalUrl: string;
  headers: Record<string, string | string[] | undefined>;
  legacyApi?: boolean;
  principal?: Principal;
  /** Basic credentials refused: the principal their key would have had, null for an unknown key. */
  refusedKey?: RequestLogScope | null;
  errorBody?: Record<string, unknown>;
}

/**
 * The batch as one JSON array of positional arrays (requestLogColumns' order). Rows of a tenant
 * erased meanwhile (sandbox tenants are deleted through the admin API) are left out; the
 * (tenant, mode) pairs of the rows written come back, to schedule their purge jobs.
 */
const INSERT_ROWS = `WITH "inserted" AS (
  INSERT INTO "request_logs"
    ("id", "tenant_id", "livemode", "api_key_id", "investor_id", "method", "path", "query", "status",
     "duration_ms", "error_code", "error", "idempotency_key", "idempotent_replayed", "legacy", "created_at")
  SELECT r->>0, r->>1, (r->>2)::boolean, r->>3, r->>4, r->>5, r->>6, NULLIF(r->7, 'null'::jsonb),
         (r->>8)::int, (r->>9)::int, r->>10, NULLIF(r->11, 'null'::jsonb), r->>12, (r->>13)::boolean,
         (r->>14)::boolean, to_timestamp((r->>15)::float8 / 1000.0)
  FROM jsonb_array_elements($1::jsonb) AS r
  WHERE EXISTS (SELECT 1 FROM "tenants" t WHERE t."id" = r->>1)
  ON CONFLICT ("id") DO NOTHING
  RETURNING "tenant_id", "livemode")
SELECT DISTINCT "tenant_id", "livemode" FROM "inserted"`;

/** A tenant and mode the insert wrote rows for (a result row of INSERT_ROWS). */
interface WrittenScope {
  tenant_id: string;
  livemode: boolean;
}

/** A flush starts early once this many rows wait. */
const FLUSH_ROWS = 200;
/** Rows kept while the database is unreachable; older ones are dropped rather than grow memory. */
const MAX_BUFFERED = 20_000;
const DAY_MS = 86_400_000;

/**
 * Records requests off the request path: at `finish` the request's references and numbers are
 * pushed into a buffer, nothing else (no row, no redaction, no string built); a timer
 * (REQUEST_LOG_FLUSH_MS, 500 ms by default) or a full batch builds the rows and writes them with
 * one multi-row INSERT (each tenant's rows apart should that fail). The timer is armed by the first
 * row into an empty buffer, so a process that serves no requests runs no flush at all, and a row
 * still waits at most one interval. A failed write is logged and its rows dropped: losing log rows
 * must never fail or slow requests. REQUEST_LOG_ENABLED=false records nothing (to measure what it costs).
 */
@Injectable()
export class RequestLogRecorder implements OnModuleDestroy {
  private readonly logger = new Logger(RequestLogRecorder.name);
  private buffer: CapturedRequest[] = [];
  private flushing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private readonly flushMs: number;
  /** (tenant, mode, day) whose purge job this process already scheduled. */
  private readonly purgeScheduled = new Set<string>();

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly clock: ClockService,
    private readonly scheduler: JobScheduler,
    private readonly credentials: CredentialCache,
  ) {
    this.flushMs = config.get('REQUEST_LOG_FLUSH_MS');
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    await this.flush();
  }

  /**
   * Called by the entry middleware's `finish` listener: captures /v1 (and legacy) requests that
   * were authenticated or refused on a known public key, and failures that happened before
   * authentication ran (a malformed body, an unknown route) whose Basic credentials name a
   * public key, resolved at flush time. Null when recording is off.
   */
  onFinished(): FinishedRequestHandler | null {
    if (!this.config.get('REQUEST_LOG_ENABLED')) {
      return null;
    }
    return (req, res, durationMs, now) => {
      const outcome = req as unknown as RequestWithOutcome;
      if (!outcome.id || !outcome.url.startsWith('/v1/')) {
        return;
      }
      const status = res.statusCode;
      const scope = outcome.principal ?? outcome.refusedKey ?? null;
      let publicKey: string | null = null;
      if (!scope) {
        // refusedKey null: refused on a key nobody knows. A success without a principal: a public route.
        if (outcome.refusedKey === null || status < 400) {
          return;
        }
        publicKey = basicCredentials(outcome.headers.authorization as string | undefined)?.publicKey ?? null;
        if (!publicKey || publicKey.length > 128) {
          return;
        }
      }
      this.push({
        id: outcome.id,
        scope,
        publicKey,
        method: outcome.method,
        originalUrl: outcome.originalUrl,
        status,
        durationMs,
        finishedAt: now,
        error: status >= 400 ? outcome.errorBody : undefined,
        idempotencyKey: outcome.headers['idempotency-key'],
        replayed: res.getHeader('Idempotent-Replayed') === 'true',
        legacy: outcome.legacyApi === true,
      });
    };
  }

  push(row: CapturedRequest): void {
    if (this.buffer.length >= MAX_BUFFERED) {
      this.buffer.shift();
    }
    this.buffer.push(row);
    if (this.buffer.length >= FLUSH_ROWS) {
      void this.flush();
    } else if (!this.timer && !this.stopped) {
      this.timer = setTimeout(this.flushOnTimer, this.flushMs);
      this.timer.unref();
    }
  }

  /** One function for every arming (no closure per flush); a row pushed from here on re-arms. */
  private readonly flushOnTimer = (): void => {
    this.timer = null;
    void this.flush();
  };

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
      const batch = this.buffer.splice(0, 1000);
      let rows: RequestLogColumns[];
      try {
        rows = (await this.attribute(batch)).map(([request, scope]) => requestLogColumns(request, scope));
      } catch (err) {
        this.logger.warn(`${batch.length} request log rows not stored: ${(err as Error).message}`);
        continue;
      }
      if (rows.length > 0) {
        await this.schedulePurges(await this.insertInParts(rows));
      }
    }
  }

  /**
   * The rows in one statement; should it fail, once more per tenant, so a row PostgreSQL refuses
   * (or a tenant erased while the statement ran) loses only its own tenant's rows. Logs counts,
   * never row contents. Returns the tenants and modes whose rows were written.
   */
  private async insertInParts(rows: RequestLogColumns[]): Promise<WrittenScope[]> {
    try {
      return await this.insert(rows);
    } catch (err) {
      const byTenant = new Map<string, RequestLogColumns[]>();
      for (const row of rows) {
        const part = byTenant.get(row[1]);
        if (part) {
          part.push(row);
        } else {
          byTenant.set(row[1], [row]);
        }
      }
      if (byTenant.size === 1) {
        this.logger.warn(`${rows.length} request log rows not stored: ${(err as Error).message}`);
        return [];
      }
      this.logger.warn(
        `${rows.length} request log rows not stored as one batch (${(err as Error).message}); ` +
          `writing them per tenant (${byTenant.size} parts)`,
      );
      const written: WrittenScope[] = [];
      for (const part of byTenant.values()) {
        try {
          written.push(...(await this.insert(part)));
        } catch (partErr) {
          this.logger.warn(`${part.length} request log rows not stored: ${(partErr as Error).message}`);
        }
      }
      return written;
    }
  }

  /**
   * Each request with the scope it is recorded under. Failures before authentication carry only
   * the public key their credentials named: the key's tenant, mode and scope (from the credential
   * cache, or the database off the request path), or nothing when no such key exists.
   */
  private async attribute(batch: CapturedRequest[]): Promise<Array<[CapturedRequest, RequestLogScope]>> {
    const out: Array<[CapturedRequest, RequestLogScope]> = [];
    // One look-up per public key and batch, however many failures name it.
    const keys = new Map<string, RequestLogScope | null>();
    for (const request of batch) {
      if (request.scope) {
        out.push([request, request.scope]);
      } else if (request.publicKey) {
        let scope = keys.get(request.publicKey);
        if (scope === undefined) {
          scope = (await this.credentials.keyByPublicKey(request.publicKey))?.principal ?? null;
          keys.set(request.publicKey, scope);
        }
        if (scope) {
          out.push([request, scope]);
        }
      }
    }
    return out;
  }

  /**
   * One statement for the whole batch, the rows as one JSON parameter of positional arrays: a
   * single JSON.stringify is the cheapest way to hand many rows to PostgreSQL from this process
   * (the request path's process), far cheaper than one array parameter per column, and arrays
   * leave out the column names an object per row would repeat.
   */
  private async insert(rows: RequestLogColumns[]): Promise<WrittenScope[]> {
    // Straight to the driver's pool as a named (prepared once per connection) statement: the
    // TypeORM query runner around it (runner, logger, broadcaster) costs more than the write on
    // this process, and the statement is never re-planned. Failures are handled by insertInParts.
    const pool = (this.dataSource.driver as unknown as { master: Pool }).master;
    const written = await pool.query<WrittenScope>({
      name: 'request_logs_insert',
      text: INSERT_ROWS,
      values: [JSON.stringify(rows)],
    });
    return written.rows;
  }

  /**
   * Once a day per tenant and mode that logged requests, a purge job on the scheduler (due a day
   * later on the tenant's clock; what it deletes is decided by real time, so moving a test clock
   * never erases the sandbox's logs early).
   */
  private async schedulePurges(written: WrittenScope[]): Promise<void> {
    const day = Math.floor(Date.now() / DAY_MS);
    let failed = 0;
    let lastError = '';
    for (const { tenant_id: tenantId, livemode } of written) {
      const key = `${tenantId}:${livemode}:${day}`;
      if (this.purgeScheduled.has(key)) {
        continue;
      }
      const tenantScope = { tenantId, livemode };
      try {
        await this.scheduler.ensure(this.dataSource.manager, {
          ...tenantScope,
          kind: PURGE_REQUEST_LOGS_JOB,
          dueAt: new Date((await this.clock.now(tenantScope)).getTime() + DAY_MS),
          payload: {},
          dedupeKey: `day-${day}`,
        });
        this.purgeScheduled.add(key);
      } catch (err) {
        // The tenant was erased since its rows were written: nothing of it is left to purge.
        // Any other failure is retried by the tenant's next flushed request.
        failed++;
        lastError = (err as Error).message;
      }
    }
    if (failed > 0) {
      this.logger.warn(`${failed} request log purge jobs not scheduled: ${lastError}`);
    }
  }
}
