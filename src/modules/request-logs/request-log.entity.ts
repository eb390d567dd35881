import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One authenticated /v1 (or legacy) request as the partner's dashboard shows it. Never the body
 * of a successful request, never headers; query values only for parameters known to carry no
 * personal data (the others are stored as "[redacted]").
 */
@Entity('request_logs')
@Index('request_logs_tenant_created_idx', ['tenant_id', 'livemode', 'created_at', 'id'])
@Index('request_logs_created_idx', ['created_at'])
export class RequestLogEntity {
  /** The request id (req_...): the `Request-Id` header and the end of `request_log_url`. */
  @PrimaryColumn({ type: 'text' })
  id: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenant_id: string;

  @Column({ type: 'boolean' })
  livemode: boolean;

  @Column({ name: 'api_key_id', type: 'text', nullable: true })
  api_key_id: string | null;

  @Column({ name: 'investor_id', type: 'text', nullable: true })
  investor_id: string | null;

  @Column({ type: 'text' })
  method: string;

  @Column({ type: 'text' })
  path: string;

  @Column({ type: 'jsonb', nullable: true })
  query: Record<string, string> | null;

  @Column({ type: 'integer' })
  status: number;

  @Column({ name: 'duration_ms', type: 'integer' })
  duration_ms: number;

  @Column({ name: 'error_code', type: 'text', nullable: true })
  error_code: string | null;

  /** The error object the client received (the SVC envelope's `error`, or the legacy body). */
  @Column({ type: 'jsonb', nullable: true })
  error: Record<string, unknown> | null;

  @Column({ name: 'idempotency_key', type: 'text', nullable: true })
  idempotency_key: string | null;

  @Column({ name: 'idempotent_replayed', type: 'boolean', default: false })
  idempotent_replayed: boolean;

  @Column({ type: 'boolean', default: false })
  legacy: boolean;

  /** Real time of arrival (operational record: never the test clock). */
  @Column({ name: 'created_at', type: 'timestamptz' })
  created_at: Date;
}
