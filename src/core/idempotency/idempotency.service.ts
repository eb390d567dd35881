import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { createHash } from 'node:crypto';
import { ServiceError } from 'src/core/errors/service-error';

export const IDEMPOTENCY_TTL_HOURS = 24;

export type Reservation = { kind: 'reserved' } | { kind: 'replay'; status: number; body: unknown };

export interface IdempotencyScope {
  tenantId: string;
  livemode: boolean;
  key: string;
}

/**
 * Idempotency-Key storage. The primary key (tenant, mode, key) decides which of two
 * concurrent requests runs: the INSERT either wins or finds the other's row.
 */
@Injectable()
export class IdempotencyService {
  constructor(private readonly dataSource: DataSource) {}

  static fingerprint(method: string, path: string, body: unknown): string {
    return createHash('sha256')
      .update(`${method} ${path}\n${JSON.stringify(body ?? null)}`)
      .digest('hex');
  }

  async reserve(scope: IdempotencyScope, requestHash: string): Promise<Reservation> {
    for (let attempt = 0; attempt < 2; attempt++) {
      const inserted: unknown[] = await this.dataSource.query(
        `INSERT INTO idempotency_keys (tenant_id, livemode, key, request_hash, state)
         VALUES ($1, $2, $3, $4, 'in_flight')
         ON CONFLICT DO NOTHING RETURNING key`,
        [scope.tenantId, scope.livemode, scope.key, requestHash],
      );
      if (inserted.length === 1) {
        return { kind: 'reserved' };
      }
      const rows: Array<{
        request_hash: string;
        state: string;
        response_status: number | null;
        response_body: unknown;
        expired: boolean;
      }> = await this.dataSource.query(
        `SELECT request_hash, state, response_status, response_body,
                created_at < now() - make_interval(hours => $4) AS expired
           FROM idempotency_keys WHERE tenant_id = $1 AND livemode = $2 AND key = $3`,
        [scope.tenantId, scope.livemode, scope.key, IDEMPOTENCY_TTL_HOURS],
      );
      const row = rows[0];
      if (!row) {
        continue; // released between our INSERT and SELECT: try once more
      }
      if (row.expired) {
        await this.release(scope);
        continue;
      }
      if (row.request_hash !== requestHash) {
        throw new ServiceError('SVC-409-002', undefined, 'Idempotency-Key');
      }
      if (row.state === 'in_flight') {
        throw new ServiceError('SVC-409-003', undefined, 'Idempotency-Key');
      }
      return { kind: 'replay', status: row.response_status ?? 200, body: row.response_body };
    }
    throw new ServiceError('SVC-409-003', undefined, 'Idempotency-Key');
  }

  async complete(scope: IdempotencyScope, status: number, body: unknown): Promise<void> {
    await this.dataSource.query(
      `UPDATE idempotency_keys SET state = 'completed', response_status = $4, response_body = $5
        WHERE tenant_id = $1 AND livemode = $2 AND key = $3`,
      [scope.tenantId, scope.livemode, scope.key, status, JSON.stringify(body ?? null)],
    );
  }

  async release(scope: IdempotencyScope): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM idempotency_keys WHERE tenant_id = $1 AND livemode = $2 AND key = $3`,
      [scope.tenantId, scope.livemode, scope.key],
    );
  }

  /** Drops keys past their 24 h life; called periodically. */
  async purgeExpired(): Promise<number> {
    const result: [unknown[], number] = await this.dataSource.query(
      `DELETE FROM idempotency_keys WHERE created_at < now() - make_interval(hours => $1)`,
      [IDEMPOTENCY_TTL_HOURS],
    );
    return result[1];
  }
}
