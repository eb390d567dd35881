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
import { insertInParts, WrittenScope } from 'src/modules/request-logs/request-log-statements';

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

/** A flush starts early once this many rows wait. */
const FLUSH_ROWS = 200;
/** Rows per statement. */
const MAX_BATCH = 1000;
/** Rows kept while the database is unreachable; older ones are dropped rather than grow memory. */
const MAX_BUFFERED = 20_000;
const DAY_MS = 86_400_000;

/**
 * Records requests off the request path: at `finish` the request's references and numbers are
 * pushed into a buffer, nothing else (no row, no redaction, no string built); a timer
 * (REQUEST_LOG_FLUSH_MS, 1 s by default) or a full batch builds the rows and writes them with
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
      const idempotencyKey = outcome.headers['idempotency-key'];
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
        idempotencyKey,
        // Only a request carrying an Idempotency-Key is ever replayed: no header look-up otherwise.
        replayed: idempotencyKey !== undefined && res.getHeader('Idempotent-Replayed') === 'true',
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

  /** The driver's pool: the insert goes straight to it (see insertInParts). */
  private get pool(): Pool {
    return (this.dataSource.driver as unknown as { master: Pool }).master;
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
      let batch = this.buffer;
      if (batch.length > MAX_BATCH) {
        batch = batch.splice(0, MAX_BATCH);
      } else {
        this.buffer = [];
      }
      let rows: RequestLogColumns[];
      try {
        rows = await this.rowsOf(batch);
      } catch (err) {
        this.logger.warn(`${batch.length} request log rows not stored: ${(err as Error).message}`);
        continue;
      }
      if (rows.length === 0) {
        continue;
      }
      const day = Math.floor(Date.now() / DAY_MS);
      if (this.purgesDue(rows, day)) {
        await this.schedulePurges(await insertInParts(this.pool, rows, true, this.logger), day);
      } else {
        await insertInParts(this.pool, rows, false, this.logger);
      }
    }
  }

  /**
   * The batch's rows. Failures before authentication carry only the public key their
   * credentials named: the key's tenant, mode and scope (from the credential cache, or the
   * database off the request path), or no row when no such key exists. Synchronous unless the
   * batch holds such a failure.
   */
  private rowsOf(batch: CapturedRequest[]): RequestLogColumns[] | Promise<RequestLogColumns[]> {
    const rows: RequestLogColumns[] = [];
    let unresolved = false;
    for (let i = 0; i < batch.length; i++) {
      const request = batch[i];
      if (request.scope) {
        rows.push(requestLogColumns(request, request.scope));
      } else if (request.publicKey) {
        unresolved = true;
      }
    }
    return unresolved ? this.addResolved(batch, rows) : rows;
  }

  private async addResolved(
    batch: CapturedRequest[],
    rows: RequestLogColumns[],
  ): Promise<RequestLogColumns[]> {
    // One look-up per public key and batch, however many failures name it.
    const keys = new Map<string, RequestLogScope | null>();
    for (const request of batch) {
      if (request.scope || !request.publicKey) {
        continue;
      }
      let scope = keys.get(request.publicKey);
      if (scope === undefined) {
        scope = await this.scopeOfKey(request.publicKey);
        keys.set(request.publicKey, scope);
      }
      if (scope) {
        rows.push(requestLogColumns(request, scope));
      }
    }
    return rows;
  }

  /**
   * The principal of a public key named by refused credentials, or null: no such key, or one the
   * database cannot look up (a NUL in a hostile Authorization header). A failed look-up costs only
   * the rows naming that key, not the batch.
   */
  private async scopeOfKey(publicKey: string): Promise<RequestLogScope | null> {
    try {
      return (await this.credentials.keyByPublicKey(publicKey))?.principal ?? null;
    } catch (err) {
      this.logger.warn(
        `Requests naming a public key that could not be looked up are not recorded: ${(err as Error).message}`,
      );
      return null;
    }
  }

  /**
   * Whether the rows hold a tenant and mode whose purge job this process has not scheduled for
   * `day`. Rows of one key follow one another, so most rows are skipped by one comparison.
   */
  private purgesDue(rows: RequestLogColumns[], day: number): boolean {
    let tenantId: string | null = null;
    let livemode = false;
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i];
      if (row[1] === tenantId && row[2] === livemode) {
        continue;
      }
      tenantId = row[1];
      livemode = row[2];
      if (!this.purgeScheduled.has(`${tenantId}:${livemode}:${day}`)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Once a day per tenant and mode that logged requests, a purge job on the scheduler (due a day
   * later on the tenant's clock; what it deletes is decided by real time, so moving a test clock
   * never erases the sandbox's logs early).
   */
  private async schedulePurges(written: WrittenScope[], day: number): Promise<void> {
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
