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

/** Types an investor or partner uploads (KYC). */
export const UPLOADABLE_DOCUMENT_TYPES = [
  'id_front',
  'id_back',
  'passport',
  'proof_of_address',
  'w8ben',
  'w9',
  'other',
] as const;
/** Types the service makes (approved at once, never uploaded). */
export const GENERATED_DOCUMENT_TYPES = ['trade_confirmation', 'account_statement'] as const;
export const DOCUMENT_TYPES = [...UPLOADABLE_DOCUMENT_TYPES, ...GENERATED_DOCUMENT_TYPES] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

export const DOCUMENT_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

export const DOCUMENT_CONTENT_TYPES = ['application/pdf', 'image/png', 'image/jpeg'] as const;
export type DocumentContentType = (typeof DOCUMENT_CONTENT_TYPES)[number];

/** A KYC document of an investor. The bytes live in DocumentStorage under `storage_key`. */
@Entity('documents')
@Index('documents_account_created_idx', ['account_id', 'created_at', 'id'])
@Index('documents_generated_key', ['tenant_id', 'livemode', 'generated_key'], {
  unique: true,
  where: '"generated_key" IS NOT NULL',
})
@Check(
  'documents_type_check',
  `"type" IN ('id_front', 'id_back', 'passport', 'proof_of_address', 'w8ben', 'w9', 'other', 'trade_confirmation', 'account_statement')`,
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

  /** Documents the service makes: `trade_confirmation:<account>:<date>`, `account_statement:<account>:<month>`. */
  @Column({ name: 'generated_key', type: 'text', nullable: true })
  generated_key: string | null;

  /** The JSON of a generated document (answered to `Accept: application/json`). */
  @Column({ type: 'jsonb', nullable: true })
  data: Record<string, unknown> | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  created_at: Date;
}
