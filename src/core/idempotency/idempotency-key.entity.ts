import { Check, Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

export type IdempotencyState = 'in_flight' | 'completed';

/** One Idempotency-Key per tenant and mode; the primary key makes concurrent repeats safe. */
@Entity('idempotency_keys')
@Check('idempotency_keys_state_check', `"state" IN ('in_flight', 'completed')`)
export class IdempotencyKeyEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'text' })
  tenant_id: string;

  @PrimaryColumn({ type: 'boolean' })
  livemode: boolean;

  @PrimaryColumn({ type: 'text' })
  key: string;

  @Column({ name: 'request_hash', type: 'text' })
  request_hash: string;

  @Column({ type: 'text' })
  state: IdempotencyState;

  @Column({ name: 'response_status', type: 'integer', nullable: true })
  response_status: number | null;

  @Column({ name: 'response_body', type: 'jsonb', nullable: true })
  response_body: unknown;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  created_at: Date;
}
