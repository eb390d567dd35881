import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

export type IdempotencyState = 'in_flight' | 'completed';

/**
 * One Idempotency-Key per principal (tenant, mode and investor scope); the primary key makes
 * concurrent repeats safe.
 */
@Entity('idempotency_keys')
@Index('idempotency_keys_owner_token_idx', ['owner_token'], { where: '"owner_token" IS NOT NULL' })
@Check('idempotency_keys_state_check', `"state" IN ('in_flight', 'completed')`)
export class IdempotencyKeyEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'text' })
  tenant_id: string;

  @PrimaryColumn({ type: 'boolean' })
  livemode: boolean;

  /** The investor id of an investor-scoped key or token, '' for a tenant-level one. */
  @PrimaryColumn({ name: 'principal_scope', type: 'text', default: '' })
  principal_scope: string;

  @PrimaryColumn({ type: 'text' })
  key: string;

  @Column({ name: 'request_hash', type: 'text' })
  request_hash: string;

  @Column({ type: 'text' })
  state: IdempotencyState;

  @Column({ name: 'response_status', type: 'integer', nullable: true })
  response_status: number | null;

  /** The stored response's JSON, sealed (AES-256-GCM under DATA_ENCRYPTION_KEY): it may hold a secret. */
  @Column({ name: 'response_body_sealed', type: 'text', nullable: true })
  response_body_sealed: string | null;

  /** Names the reservation of the request running under this key (null once completed). */
  @Column({ name: 'owner_token', type: 'text', nullable: true })
  owner_token: string | null;

  /** Renewed while the request runs; once past, the key is free again (its process died). */
  @Column({ name: 'lease_expires_at', type: 'timestamptz', nullable: true })
  lease_expires_at: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  created_at: Date;
}
