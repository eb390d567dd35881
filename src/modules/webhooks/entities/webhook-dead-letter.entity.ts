import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { EventEntity } from 'src/core/events/event.entity';
import { WebhookEndpointEntity } from 'src/modules/webhooks/entities/webhook-endpoint.entity';

/** A delivery that exhausted its retries (or met a 410): kept for support to replay. */
@Entity('webhook_dead_letters')
@Index('webhook_dead_letters_event_endpoint_key', ['event_id', 'endpoint_id'], { unique: true })
@Index('webhook_dead_letters_endpoint_idx', ['endpoint_id'])
@Index('webhook_dead_letters_tenant_created_idx', ['tenant_id', 'created_at'])
export class WebhookDeadLetterEntity {
  @PrimaryColumn({ type: 'text' })
  id: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenant_id: string;

  @Column({ type: 'boolean' })
  livemode: boolean;

  @Column({ name: 'endpoint_id', type: 'text' })
  endpoint_id: string;

  @ManyToOne(() => WebhookEndpointEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'endpoint_id', foreignKeyConstraintName: 'webhook_dead_letters_endpoint_id_fkey' })
  endpoint?: WebhookEndpointEntity;

  @Column({ name: 'event_id', type: 'text' })
  event_id: string;

  @ManyToOne(() => EventEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id', foreignKeyConstraintName: 'webhook_dead_letters_event_id_fkey' })
  event?: EventEntity;

  /** Attempts made in the run that ended here. */
  @Column({ type: 'integer' })
  attempts: number;

  @Column({ name: 'last_status_code', type: 'integer', nullable: true })
  last_status_code: number | null;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  last_error: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  created_at: Date;

  /** Set when support replays it; cleared if the replay dead-letters again. */
  @Column({ name: 'replayed_at', type: 'timestamptz', nullable: true })
  replayed_at: Date | null;

  @Column({ name: 'replay_count', type: 'integer', default: 0 })
  replay_count: number;
}
