import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { encryptedColumn } from 'src/core/crypto/data-encryption';
import { TenantEntity } from 'src/core/tenancy/tenant.entity';
import { InvestmentAccountEntity } from 'src/modules/accounts/entities/investment-account.entity';

export const FUNDING_SOURCE_STATUSES = ['verified', 'removed'] as const;
export type FundingSourceStatus = (typeof FUNDING_SOURCE_STATUSES)[number];

/**
 * An investor's bank account (fs_...). The account number is stored encrypted; only its last four
 * digits are ever shown. Removing it keeps the row (transfers name it) with status `removed`.
 */
@Entity('funding_sources')
@Index('funding_sources_investor_created_idx', ['tenant_id', 'livemode', 'investor_id', 'created_at', 'id'])
@Check('funding_sources_type_check', `"type" IN ('bank_account')`)
@Check('funding_sources_status_check', `"status" IN ('verified', 'removed')`)
export class FundingSourceEntity {
  @PrimaryColumn({ type: 'text' })
  id: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenant_id: string;

  @ManyToOne(() => TenantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id', foreignKeyConstraintName: 'funding_sources_tenant_id_fkey' })
  tenant?: TenantEntity;

  @Column({ type: 'boolean' })
  livemode: boolean;

  /** Null for the firm account's rows (no investor). */
  @Column({ name: 'investor_id', type: 'text', nullable: true })
  investor_id: string | null;

  @Column({ name: 'account_id', type: 'uuid' })
  account_id: string;

  @ManyToOne(() => InvestmentAccountEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id', foreignKeyConstraintName: 'funding_sources_account_id_fkey' })
  account?: InvestmentAccountEntity;

  @Column({ type: 'text' })
  type: 'bank_account';

  @Column({ name: 'account_holder_name', type: 'text' })
  account_holder_name: string;

  /** Encrypted at rest (AES-256-GCM under DATA_ENCRYPTION_KEY); plain in memory only. */
  @Column({ name: 'account_number', type: 'text', transformer: encryptedColumn('personal-data') })
  account_number: string;

  @Column({ name: 'account_number_last4', type: 'text' })
  account_number_last4: string;

  @Column({ name: 'routing_number', type: 'text', nullable: true })
  routing_number: string | null;

  @Column({ name: 'bank_code', type: 'text', nullable: true })
  bank_code: string | null;

  @Column({ type: 'text' })
  currency: string;

  /** ISO 3166-1 alpha-2. */
  @Column({ type: 'text' })
  country: string;

  @Column({ type: 'text' })
  status: FundingSourceStatus;

  /** Test mode: how transfers with it end (test bank account numbers); null in live mode. */
  @Column({ name: 'sandbox_outcome', type: 'text', nullable: true })
  sandbox_outcome: 'settle' | 'fail' | null;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  metadata: Record<string, string>;

  /** Clock time. */
  @Column({ name: 'created_at', type: 'timestamptz' })
  created_at: Date;

  @Column({ name: 'removed_at', type: 'timestamptz', nullable: true })
  removed_at: Date | null;
}
