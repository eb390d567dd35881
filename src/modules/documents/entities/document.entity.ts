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
import { InvestmentAccountEntity } from 'src/modules/accounts/entities/investment-account.entity';

export const DOCUMENT_TYPES = [
  'id_front',
  'id_back',
  'passport',
  'proof_of_address',
  'w8ben',
  'w9',
  'other',
] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

export const DOCUMENT_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

export const DOCUMENT_CONTENT_TYPES = ['application/pdf', 'image/png', 'image/jpeg'] as const;
export type DocumentContentType = (typeof DOCUMENT_CONTENT_TYPES)[number];

/** A KYC document of an investor. The bytes live in DocumentStorage under `storage_key`. */
@Entity('documents')
@Index('documents_account_created_idx', ['account_id', 'created_at', 'id'])
@Check(
  'documents_type_check',
  `"type" IN ('id_front', 'id_back', 'passport', 'proof_of_address', 'w8ben', 'w9', 'other')`,
)
@Check('documents_status_check', `"status" IN ('pending', 'approved', 'rejected')`)
@Check('documents_content_type_check', `"content_type" IN ('application/pdf', 'image/png', 'image/jpeg')`)
@Check('documents_size_check', `"size" > 0`)
export class DocumentEntity {
  @PrimaryColumn({ type: 'text' })
  id: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenant_id: string;

  @ManyToOne(() => TenantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id', foreignKeyConstraintName: 'documents_tenant_id_fkey' })
  tenant?: TenantEntity;

  @Column({ type: 'boolean' })
  livemode: boolean;

  @Column({ name: 'investor_id', type: 'text' })
  investor_id: string;

  @Column({ name: 'account_id', type: 'uuid' })
  account_id: string;

  @ManyToOne(() => InvestmentAccountEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id', foreignKeyConstraintName: 'documents_account_id_fkey' })
  account?: InvestmentAccountEntity;

  @Column({ type: 'text' })
  type: DocumentType;

  @Column({ type: 'text', default: 'pending' })
  status: DocumentStatus;

  /** The uploader's file name, cleaned of any path and control characters (display only). */
  @Column({ name: 'file_name', type: 'text' })
  file_name: string;

  @Column({ name: 'content_type', type: 'text' })
  content_type: DocumentContentType;

  @Column({ type: 'integer' })
  size: number;

  @Column({ type: 'text' })
  sha256: string;

  @Column({ name: 'storage_key', type: 'text' })
  storage_key: string;

  @Column({ name: 'rejection_reason', type: 'text', nullable: true })
  rejection_reason: string | null;

  @Column({ name: 'reviewed_at', type: 'timestamptz', nullable: true })
  reviewed_at: Date | null;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  metadata: Record<string, string>;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  created_at: Date;
}
