import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * Transactional outbox: an event row is written in the same transaction as the change it
 * reports; the relay hands committed rows to the delivery queue and stamps relayed_at.
 */
@Entity('events')
@Index('events_tenant_mode_created_idx', ['tenant_id', 'livemode', 'created_at'])
@Index('events_unrelayed_idx', ['created_at'], { where: '"relayed_at" IS NULL' })
export class EventEntity {
  @PrimaryColumn({ type: 'text' })
  id: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenant_id: string;

  @Column({ type: 'boolean' })
  livemode: boolean;

  @Column({ type: 'text' })
  event: string;

  @Column({ type: 'jsonb' })
  data: Record<string, unknown>;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  created_at: Date;

  @Column({ name: 'relayed_at', type: 'timestamptz', nullable: true })
  relayed_at: Date | null;

  /**
   * Set only on test events: the one webhook endpoint (we_...) that receives it. Null: every
   * enabled endpoint of the tenant and mode whose eventTypeNames match.
   */
  @Column({ name: 'endpoint_id', type: 'text', nullable: true })
  endpoint_id: string | null;
}
