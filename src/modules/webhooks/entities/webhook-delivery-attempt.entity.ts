import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { EventEntity } from 'src/core/events/event.entity';
import { WebhookEndpointEntity } from 'src/modules/webhooks/entities/webhook-endpoint.entity';

/** One HTTP POST of one event to one endpoint: when, how it ended, how long it took. */
@Entity('webhook_delivery_attempts')
@Index('webhook_delivery_attempts_endpoint_event_idx', ['endpoint_id', 'event_id', 'attempted_at'])
@Index('webhook_delivery_attempts_event_idx', ['event_id'])
@Check('webhook_delivery_attempts_attempt_check', `"attempt" BETWEEN 1 AND 6`)
export class WebhookDeliveryAttemptEntity {
  @PrimaryColumn({ type: 'text' })
  id: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenant_id: string;

  @Column({ type: 'boolean' })
  livemode: boolean;

  @Column({ name: 'endpoint_id', type: 'text' })
  endpoint_id: string;

  @ManyToOne(() => WebhookEndpointEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'endpoint_id', foreignKeyConstraintName: 'webhook_delivery_attempts_endpoint_id_fkey' })
  endpoint?: WebhookEndpointEntity;

  @Column({ name: 'event_id', type: 'text' })
  event_id: string;

  @ManyToOne(() => EventEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id', foreignKeyConstraintName: 'webhook_delivery_attempts_event_id_fkey' })
  event?: EventEntity;

  /** 0 for the original delivery; each support replay starts a new run at attempt 1. */
  @Column({ type: 'integer', default: 0 })
  run: number;

  /** 1 is the first try; 2 to 6 are the five retries. */
  @Column({ type: 'integer' })
  attempt: number;

  @Column({ name: 'attempted_at', type: 'timestamptz' })
  attempted_at: Date;

  @Column({ type: 'boolean' })
  succeeded: boolean;

  @Column({ name: 'status_code', type: 'integer', nullable: true })
  status_code: number | null;

  @Column({ type: 'text', nullable: true })
  error: string | null;

  @Column({ name: 'duration_ms', type: 'integer' })
  duration_ms: number;

  /** When the next retry is due; null after a success or the last attempt. */
  @Column({ name: 'next_attempt_at', type: 'timestamptz', nullable: true })
  next_attempt_at: Date | null;
}
