import { Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { createHash, randomUUID } from 'node:crypto';
import { AppConfig } from 'src/core/config/app-config.service';
import { DataEncryption } from 'src/core/crypto/data-encryption';
import { preparedQuery } from 'src/core/database/prepared-query';
import { WriteBatch } from 'src/core/database/write-batch';
import type { SecretBox } from 'src/core/crypto/secret-box';
import {
  IdempotencyKeyInFlightError,
  IdempotencyKeyReusedError,
} from 'src/core/idempotency/idempotency-errors';
import { ReleaseRetries } from 'src/core/idempotency/release-retries';
import { KeysInTransaction } from 'src/core/idempotency/keys-in-transaction';

export const IDEMPOTENCY_TTL_HOURS = 24;
/** How often each process drops keys past their 24 h life (their stored responses go with them). */
const PURGE_INTERVAL_MS = 15 * 60_000;

export type Reservation =
  { kind: 'reserved'; token: string } | { kind: 'replay'; status: number; body: unknown };

/**
 * Whose key it is: tenant, mode and the investor scope of the key or token (`principal`: the
 * investor id, '' for a tenant-level key). A replay answers only the principal that sent the first
 * request; the same key from another principal is a new request.
 */
export interface IdempotencyScope {
  tenantId: string;
  livemode: boolean;
  principal: string;
  key: string;
}

/** The principal part of an IdempotencyScope: the investor scope of the key or token. */
export function principalScopeOf(principal: { investorId: string | null }): string {
  return principal.investorId ?? '';
}

/** A reservation held by this process: the key, and the token that proves it is ours. */
export interface HeldKey {
  scope: IdempotencyScope;
  token: string;
  /** Set when the key is checked and stored inside the effect's transaction (KeysInTransaction). */
  fingerprint?: string;
}

/**
 * Idempotency-Key storage. The primary key (tenant, mode, principal scope, key) decides which of two
 * concurrent requests runs: the INSERT either wins or finds the other's row.
 *
 * A reservation is a lease: this process renews `lease_expires_at` of the keys it holds every
 * third of IDEMPOTENCY_LEASE_MS, so a key whose process died is free again within one lease.
 * Every write after the reservation names the owner token, so a request that outlived its lease
 * (a stalled process) cannot complete or release a key another request has since taken.
 *
 * Stored responses are sealed (AES-256-GCM under DATA_ENCRYPTION_KEY): some carry a secret shown
 * once (a new API key's secret, a webhook signing secret), most carry personal data. Sealing
 * every body rather than marked routes costs a few microseconds (bench/idempotency-seal) and
 * cannot be forgotten on a new route.
 */
/**
 * Inserts a new reservation, or takes over one that expired ($7 hours) or whose lease ran out:
 * $1 tenant, $2 mode, $3 key, $4 request hash, $5 owner token, $6 lease seconds, $8 principal.
 */
const RESERVE_KEY = `INSERT INTO idempotency_keys
    (tenant_id, livemode, key, request_hash, state, owner_token, lease_expires_at, created_at, principal_scope)
  VALUES ($1, $2, $3, $4, 'in_flight', $5, now() + make_interval(secs => $6), now(), $8)
  ON CONFLICT (tenant_id, livemode, principal_scope, key) DO UPDATE
     SET request_hash = EXCLUDED.request_hash, state = 'in_flight', response_status = NULL,
         response_body_sealed = NULL, owner_token = EXCLUDED.owner_token,
         lease_expires_at = EXCLUDED.lease_expires_at, created_at = now()
   WHERE idempotency_keys.created_at < now() - make_interval(hours => $7)
      OR (idempotency_keys.state = 'in_flight' AND idempotency_keys.lease_expires_at < now())
  RETURNING key`;

/** The key another request holds or completed: $1 tenant, $2 mode, $3 key, $4 principal. */
const READ_RESERVED_KEY = `SELECT request_hash, state, response_status, response_body_sealed
  FROM idempotency_keys WHERE tenant_id = $1 AND livemode = $2 AND principal_scope = $4 AND key = $3`;

@Injectable()
export class IdempotencyService implements OnModuleInit, OnModuleDestroy {
  private readonly held = new Map<string, HeldKey>();
  private readonly leaseMs: number;
  private renewal: NodeJS.Timeout | undefined;
  private purge: NodeJS.Timeout | undefined;
  private readonly box: SecretBox;
  /** Keys of routes that check and store them inside the effect's transaction. */
  readonly inTransaction: KeysInTransaction;
  private readonly releaseRetries: ReleaseRetries<HeldKey>;

  constructor(
    private readonly dataSource: DataSource,
    config: AppConfig,
    encryption: DataEncryption,
  ) {
    this.leaseMs = config.get('IDEMPOTENCY_LEASE_MS');
    this.box = encryption.box('idempotent-responses');
    this.inTransaction = new KeysInTransaction(dataSource, this, IDEMPOTENCY_TTL_HOURS);
    this.releaseRetries = new ReleaseRetries((held) => this.deleteReservation(held), this.leaseMs);
  }

  static fingerprint(method: string, path: string, body: unknown): string {
    return createHash('sha256')
      .update(`${method} ${path}\n${JSON.stringify(body ?? null)}`)
      .digest('hex');
  }

  async reserve(scope: IdempotencyScope, requestHash: string): Promise<Reservation> {
    const token = randomUUID();
    for (let attempt = 0; attempt < 3; attempt++) {
      const taken = await preparedQuery(this.dataSource, RESERVE_KEY, [
        scope.tenantId,
        scope.livemode,
        scope.key,
        requestHash,
        token,
        this.leaseMs / 1000,
        IDEMPOTENCY_TTL_HOURS,
        scope.principal,
      ]);
      if (taken.length === 1) {
        this.hold({ scope, token });
        return { kind: 'reserved', token };
      }
      const rows: Array<{
        request_hash: string;
        state: string;
        response_status: number | null;
        response_body_sealed: string | null;
      }> = await preparedQuery(this.dataSource, READ_RESERVED_KEY, [
        scope.tenantId,
        scope.livemode,
        scope.key,
        scope.principal,
      ]);
      const row = rows[0];
      if (!row) {
        continue; // released between our INSERT and SELECT: try again
      }
      if (row.request_hash !== requestHash) {
        throw new IdempotencyKeyReusedError();
      }
      if (row.state === 'in_flight') {
        throw new IdempotencyKeyInFlightError();
      }
      return {
        kind: 'replay',
        status: row.response_status ?? 200,
        body: this.unseal(row.response_body_sealed),
      };
    }
    throw new IdempotencyKeyInFlightError();
  }

  /**
   * Stores the response inside the caller's transaction, so the effect and its stored response
   * commit together or not at all. Throws 409 SVC-409-003 (rolling the transaction back) when
   * this request no longer holds the key.
   */
  async completeWithin(manager: EntityManager, held: HeldKey, status: number, body: unknown): Promise<void> {
    const batch = new WriteBatch();
    this.completeInto(batch, held, status, body);
    await batch.run(manager);
  }

  /**
   * completeWithin as a statement of the caller's batch (the batch's check throws 409 SVC-409-003
   * when this request no longer holds the key; run the batch inside the effect's transaction).
   */
  completeInto(batch: WriteBatch, held: HeldKey, status: number, body: unknown): void {
    if (held.fingerprint !== undefined) {
      this.inTransaction.storeInto(batch, { ...held, fingerprint: held.fingerprint, status }, body);
      return;
    }
    const { tenantId, livemode, principal, key } = held.scope;
    batch.add({
      changes: { table: 'idempotency_keys', key: `${tenantId}:${livemode}:${principal}:${key}` },
      sql: `UPDATE idempotency_keys
          SET state = 'completed', response_status = $5, response_body_sealed = $6, owner_token = NULL,
              lease_expires_at = NULL
        WHERE tenant_id = $1 AND livemode = $2 AND principal_scope = $7 AND key = $3 AND owner_token = $4
          AND state = 'in_flight'
        RETURNING key`,
      params: [
        held.scope.tenantId,
        held.scope.livemode,
        held.scope.key,
        held.token,
        status,
        this.seal(body),
        held.scope.principal,
      ],
      check: (updated) => {
        if (updated !== 1) {
          throw IdempotencyKeyInFlightError.reservationLost();
        }
      },
    });
  }

  /** Stores the response after the fact (routes whose effect is not one transaction). */
  async complete(held: HeldKey, status: number, body: unknown): Promise<void> {
    try {
      await this.dataSource.transaction((manager) => this.completeWithin(manager, held, status, body));
    } finally {
      this.unhold(held);
    }
  }

  /**
   * The request failed or the key was completed in its transaction: stop renewing it. A DELETE
   * that fails is tried again in the background (ReleaseRetries).
   */
  async release(held: HeldKey): Promise<void> {
    this.unhold(held);
    try {
      await this.deleteReservation(held);
    } catch (err) {
      this.releaseRetries.add(held);
      throw err;
    }
  }

  private async deleteReservation(held: HeldKey): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM idempotency_keys
        WHERE tenant_id = $1 AND livemode = $2 AND principal_scope = $5 AND key = $3 AND owner_token = $4
          AND state = 'in_flight'`,
      [held.scope.tenantId, held.scope.livemode, held.scope.key, held.token, held.scope.principal],
    );
  }

  /** The response was stored in the effect's transaction: nothing left to write. */
  settled(held: HeldKey): void {
    this.unhold(held);
  }

  /** Drops keys past their 24 h life; every process runs it every PURGE_INTERVAL_MS. */
  async purgeExpired(): Promise<number> {
    const result: [unknown[], number] = await this.dataSource.query(
      `DELETE FROM idempotency_keys WHERE created_at < now() - make_interval(hours => $1)`,
      [IDEMPOTENCY_TTL_HOURS],
    );
    return result[1];
  }

  /** The sealed form of a response body as stored (its JSON, encrypted). */
  seal(body: unknown): string {
    return this.box.seal(JSON.stringify(body ?? null));
  }

  unseal(sealed: string | null): unknown {
    return sealed === null ? null : JSON.parse(this.box.open(sealed));
  }

  onModuleInit(): void {
    this.purge = setInterval(
      () => void this.purgeExpired().catch(() => undefined),
      PURGE_INTERVAL_MS,
    ).unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.renewal);
    clearInterval(this.purge);
    this.releaseRetries.stop();
    this.renewal = undefined;
  }

  private hold(held: HeldKey): void {
    this.held.set(held.token, held);
    this.renewal ??= setInterval(() => void this.renewLeases(), Math.max(100, this.leaseMs / 3)).unref();
  }

  private unhold(held: HeldKey): void {
    this.held.delete(held.token);
  }

  /** One UPDATE per interval for every key this process holds. */
  private async renewLeases(): Promise<void> {
    if (this.held.size === 0) {
      return;
    }
    const tokens = [...this.held.keys()];
    await this.dataSource
      .query(
        `UPDATE idempotency_keys SET lease_expires_at = now() + make_interval(secs => $2)
          WHERE owner_token = ANY($1) AND state = 'in_flight'`,
        [tokens, this.leaseMs / 1000],
      )
      .catch(() => undefined); // the next interval tries again; a lost lease is refused at completion
  }
}
