import type { DataSource } from 'typeorm';
import { preparedQuery } from 'src/core/database/prepared-query';
import type { ReadBatch } from 'src/core/database/read-batch';
import type { WriteBatch } from 'src/core/database/write-batch';
import {
  IdempotencyKeyInFlightError,
  IdempotencyKeyReusedError,
} from 'src/core/idempotency/idempotency-errors';
import { IdempotentReplay } from 'src/core/idempotency/idempotent-replay';
import type { IdempotentRequest } from 'src/core/idempotency/idempotent-request';

/** Seals and opens stored responses (IdempotencyService). */
export interface ResponseSeal {
  seal(body: unknown): string;
  unseal(sealed: string | null): unknown;
}

/**
 * A request of a route marked `@IdempotencyInTransaction()` that sent an Idempotency-Key;
 * `checked` once its transaction read the key.
 */
export type KeyedInTransaction = IdempotentRequest & { fingerprint: string; checked?: boolean };

interface StoredKey {
  locked: boolean;
  request_hash: string | null;
  state: string | null;
  response_status: number | null;
  response_body_sealed: string | null;
  /** Past its 24 h life, or a reservation whose lease ran out (its process died): free again. */
  stale: boolean | null;
}

/**
 * A key is free when it has no row, or a row past its 24 h life, or a reservation whose lease ran
 * out. `$4` is the life in hours.
 */
const STALE = `(k.created_at < now() - make_interval(hours => $4)
                OR (k.state = 'in_flight' AND k.lease_expires_at < now()))`;

/**
 * The advisory lock (64-bit hash of tenant, mode, principal scope and key) is held until the transaction ends: a
 * concurrent repeat cannot take it and answers 409 SVC-409-003 without waiting. The row read
 * beside it decides replay (same fingerprint, completed) or 409 SVC-409-002 (another body).
 */
const CHECK_KEY = `SELECT pg_try_advisory_xact_lock(
         hashtextextended('idempotency ' || $1 || ' ' || $2::text || ' ' || $5 || ' ' || $3, 0)) AS locked,
       k.request_hash, k.state, k.response_status, k.response_body_sealed, ${STALE} AS stale
  FROM (SELECT) one LEFT JOIN idempotency_keys k
    ON k.tenant_id = $1 AND k.livemode = $2 AND k.principal_scope = $5 AND k.key = $3`;

/** The stored key alone, outside any transaction (a request refused before it read the key). */
const READ_KEY = `SELECT true AS locked, k.request_hash, k.state, k.response_status, k.response_body_sealed,
       ${STALE} AS stale
  FROM idempotency_keys k
 WHERE k.tenant_id = $1 AND k.livemode = $2 AND k.principal_scope = $5 AND k.key = $3`;

/**
 * The completed key with its sealed response. A row another request committed in the meantime is
 * kept (the statement returns nothing): that can only be a repeat that finished first.
 */
const STORE_KEY = `INSERT INTO idempotency_keys AS k
         (tenant_id, livemode, key, request_hash, state, response_status, response_body_sealed, created_at,
          principal_scope)
  VALUES ($1, $2, $3, $5, 'completed', $6, $7, now(), $8)
  ON CONFLICT (tenant_id, livemode, principal_scope, key) DO UPDATE
     SET request_hash = EXCLUDED.request_hash, state = 'completed',
         response_status = EXCLUDED.response_status, response_body_sealed = EXCLUDED.response_body_sealed,
         owner_token = NULL, lease_expires_at = NULL, created_at = now()
   WHERE ${STALE}
  RETURNING key`;

/**
 * Idempotency-Keys of routes marked `@IdempotencyInTransaction()`: checked in the first read of
 * the effect's transaction and stored in its write batch, so the key costs no statement and no
 * commit of its own. Nothing is written before the effect commits, so a request that fails or
 * whose process dies leaves the key free.
 */
export class KeysInTransaction {
  constructor(
    private readonly dataSource: DataSource,
    private readonly responses: ResponseSeal,
    private readonly ttlHours: number,
  ) {}

  /** The key's check as a read of the transaction's first batch; it throws when the batch ran. */
  checkIn(reads: ReadBatch, request: KeyedInTransaction): void {
    const { tenantId, livemode, key, principal } = request.scope;
    reads.add<StoredKey>(CHECK_KEY, [tenantId, livemode, key, this.ttlHours, principal], (row) => {
      request.checked = true;
      if (row?.request_hash != null && !row.stale) {
        if (row.request_hash !== request.fingerprint) {
          throw new IdempotencyKeyReusedError();
        }
        if (row.state !== 'completed') {
          throw new IdempotencyKeyInFlightError();
        }
        request.settled = true;
        throw new IdempotentReplay(
          row.response_status ?? 200,
          this.responses.unseal(row.response_body_sealed),
        );
      }
      if (!row?.locked) {
        throw new IdempotencyKeyInFlightError();
      }
    });
  }

  /**
   * What a request refused before its transaction read the key (validation, a malformed id)
   * answers instead, as on every other route: a key stored for another body is 409 SVC-409-002,
   * one stored for this body replays, a reservation in flight is 409 SVC-409-003; null when the
   * key is free and the refusal stands.
   */
  async answerForRefused(request: KeyedInTransaction): Promise<Error | null> {
    const { tenantId, livemode, key, principal } = request.scope;
    const rows = await preparedQuery<StoredKey>(this.dataSource, READ_KEY, [
      tenantId,
      livemode,
      key,
      this.ttlHours,
      principal,
    ]);
    const row = rows[0];
    if (!row || row.stale) {
      return null;
    }
    if (row.request_hash !== request.fingerprint) {
      return new IdempotencyKeyReusedError();
    }
    if (row.state !== 'completed') {
      return new IdempotencyKeyInFlightError();
    }
    return new IdempotentReplay(row.response_status ?? 200, this.responses.unseal(row.response_body_sealed));
  }

  /** The completed key as a statement of the effect's write batch. */
  storeInto(batch: WriteBatch, request: Omit<KeyedInTransaction, 'settled'>, body: unknown): void {
    const { tenantId, livemode, principal, key } = request.scope;
    batch.add({
      sql: STORE_KEY,
      params: this.storeParams(request, body),
      changes: { table: 'idempotency_keys', key: `${tenantId}:${livemode}:${principal}:${key}` },
      check: (stored) => {
        if (stored !== 1) {
          throw new IdempotencyKeyInFlightError();
        }
      },
    });
  }

  /**
   * A marked route answered without committing through IdempotentTransaction: its response is
   * stored after the fact, unless a repeat stored one first.
   */
  async storeAfter(request: KeyedInTransaction, status: number, body: unknown): Promise<void> {
    await preparedQuery(this.dataSource, STORE_KEY, this.storeParams({ ...request, status }, body));
  }

  private storeParams(request: Omit<KeyedInTransaction, 'settled'>, body: unknown): unknown[] {
    const { tenantId, livemode, key, principal } = request.scope;
    return [
      tenantId,
      livemode,
      key,
      this.ttlHours,
      request.fingerprint,
      request.status,
      this.responses.seal(body),
      principal,
    ];
  }
}
