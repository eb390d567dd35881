import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
} from 'typeorm';
import { TenantEntity } from 'src/core/tenancy/tenant.entity';

export type KeyEnvironment = 'TEST' | 'PRODUCTION';
export type StoredKeyStatus = 'active' | 'revoked';

/** An API key: public part in clear, secret only as its SHA-256. */
@Entity('api_keys')
@Index('api_keys_tenant_investor_idx', ['tenant_id', 'investor_id'])
@Check('api_keys_environment_check', `"environment" IN ('TEST', 'PRODUCTION')`)
@Check('api_keys_status_check', `"status" IN ('active', 'revoked')`)
export class ApiKeyEntity {
  @PrimaryColumn({ type: 'text' })
  id: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenant_id: string;

  @ManyToOne(() => TenantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id', foreignKeyConstraintName: 'api_keys_tenant_id_fkey' })
  tenant?: TenantEntity;

  /** Investor the key is scoped to (inv_...), or null for a tenant key. */
  @Column({ name: 'investor_id', type: 'text', nullable: true })
  investor_id: string | null;

  @Column({ type: 'text', default: '' })
  name: string;

  @Column({ type: 'text' })
  environment: KeyEnvironment;

  @Index('api_keys_public_key_key', { unique: true })
  @Column({ name: 'public_key', type: 'text' })
  public_key: string;

  @Column({ name: 'secret_hash', type: 'text' })
  secret_hash: string;

  @Column({ type: 'text', default: 'active' })
  status: StoredKeyStatus;

  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expires_at: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revoked_at: Date | null;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  metadata: Record<string, string>;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  created_at: Date;
}
