import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  UpdateDateColumn,
} from 'typeorm';
import { TenantEntity } from 'src/core/tenancy/tenant.entity';

export const WEBHOOK_STATUSES = ['enabled', 'disabled'] as const;
export type WebhookStatus = (typeof WEBHOOK_STATUSES)[number];

/**
 * A partner's webhook endpoint. The signing secret is stored encrypted (AES-256-GCM under
 * WEBHOOK_SECRET_KEY): delivery must be able to sign, so a one-way hash would not do.
 */
@Entity('webhook_endpoints')
@Index('webhook_endpoints_tenant_mode_created_idx', ['tenant_id', 'livemode', 'created_at'])
@Check('webhook_endpoints_status_check', `"status" IN ('enabled', 'disabled')`)
export class WebhookEndpointEntity {
  @PrimaryColumn({ type: 'text' })
  id: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenant_id: string;

  @ManyToOne(() => TenantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id', foreignKeyConstraintName: 'webhook_endpoints_tenant_id_fkey' })
  tenant?: TenantEntity;

  @Column({ type: 'boolean' })
  livemode: boolean;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'text' })
  url: string;

  @Column({ name: 'event_type_names', type: 'text', array: true })
  event_type_names: string[];

  @Column({ type: 'text', default: 'enabled' })
  status: WebhookStatus;

  @Column({ name: 'secret_ciphertext', type: 'text' })
  secret_ciphertext: string;

  /** The secret before the last rotation; it still signs until previous_secret_expires_at. */
  @Column({ name: 'previous_secret_ciphertext', type: 'text', nullable: true })
  previous_secret_ciphertext: string | null;

  @Column({ name: 'previous_secret_expires_at', type: 'timestamptz', nullable: true })
  previous_secret_expires_at: Date | null;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  metadata: Record<string, string>;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  created_at: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updated_at: Date;
}
