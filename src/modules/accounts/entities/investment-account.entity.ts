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
import { encryptedColumn } from 'src/core/crypto/data-encryption';
import { TenantEntity } from 'src/core/tenancy/tenant.entity';
import type {
  AccountStatus,
  AccountType,
  CryptoStatus,
  EnabledAsset,
  HolderAddress,
  HolderDisclosures,
  HolderIdentity,
  KycStatus,
  TradingType,
} from 'src/modules/accounts/entities/account-types';

/**
 * An investor's investment account. It is the system of record of the account application:
 * the holder's contact, identity and disclosures (as in the spec's Investment account record)
 * and the state of its KYC review. Countries are stored as alpha-2 and rendered as alpha-3.
 */
@Entity('investment_accounts')
@Index('investment_accounts_account_number_key', ['account_number'], { unique: true })
@Index('investment_accounts_investor_id_key', ['investor_id'], { unique: true })
@Index('investment_accounts_tenant_mode_created_idx', ['tenant_id', 'livemode', 'created_at'])
@Index('investment_accounts_tenant_mode_email_idx', ['tenant_id', 'livemode', 'email_address'])
@Index('investment_accounts_firm_key', ['tenant_id', 'livemode'], {
  unique: true,
  where: `"account_type" = 'firm'`,
})
@Check(
  'investment_accounts_status_check',
  `"status" IN ('SUBMITTED', 'PENDING_APPROVAL', 'ACTIVE', 'SUSPENDED', 'CLOSED')`,
)
@Check('investment_accounts_crypto_status_check', `"crypto_status" IN ('ACTIVE', 'INACTIVE', 'SUSPENDED')`)
@Check(
  'investment_accounts_account_type_check',
  `"account_type" IN ('trading', 'individual', 'joint', 'ira', 'corporate', 'firm')`,
)
@Check('investment_accounts_firm_check', `("account_type" = 'firm') = ("investor_id" IS NULL)`)
@Check('investment_accounts_trading_type_check', `"trading_type" IN ('cash', 'margin')`)
@Check(
  'investment_accounts_kyc_status_check',
  `"kyc_status" IN ('not_submitted', 'in_review', 'approved', 'rejected')`,
)
export class InvestmentAccountEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenant_id: string;

  @ManyToOne(() => TenantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id', foreignKeyConstraintName: 'investment_accounts_tenant_id_fkey' })
  tenant?: TenantEntity;

  @Column({ type: 'boolean' })
  livemode: boolean;

  /**
   * The investor (inv_...) holding the account: exactly one account per investor. Null only for
   * the tenant's firm account (`account_type` `firm`), one per mode.
   */
  @Column({ name: 'investor_id', type: 'text', nullable: true })
  investor_id: string | null;

  @Column({ name: 'account_number', type: 'text' })
  account_number: string;

  @Column({ type: 'text', default: 'SUBMITTED' })
  status: AccountStatus;

  @Column({ name: 'crypto_status', type: 'text', default: 'INACTIVE' })
  crypto_status: CryptoStatus;

  @Column({ type: 'text', default: 'USD' })
  currency: string;

  @Column({ name: 'account_type', type: 'text', default: 'trading' })
  account_type: AccountType;

  @Column({ name: 'trading_type', type: 'text', default: 'cash' })
  trading_type: TradingType;

  @Column({ name: 'trading_configurations', type: 'jsonb', nullable: true })
  trading_configurations: Record<string, unknown> | null;

  @Column({ name: 'enabled_assets', type: 'text', array: true })
  enabled_assets: EnabledAsset[];

  /** Lower-cased e-mail address of the holder (filterable). */
  @Column({ name: 'email_address', type: 'text' })
  email_address: string;

  @Column({ name: 'phone_number', type: 'text' })
  phone_number: string;

  @Column({ type: 'jsonb' })
  address: HolderAddress;

  @Column({ type: 'jsonb' })
  identity: HolderIdentity;

  /**
   * The full tax id, plain only in memory: the column holds it sealed (AES-256-GCM under
   * DATA_ENCRYPTION_KEY). Only its last four characters ever leave the service.
   */
  @Column({
    name: 'tax_id_ciphertext',
    type: 'text',
    nullable: true,
    transformer: encryptedColumn('personal-data'),
  })
  tax_id: string | null;

  /** The tax id's last four characters, kept in clear for display (`*****6789`). */
  @Column({ name: 'tax_id_last4', type: 'text', nullable: true })
  tax_id_last4: string | null;

  @Column({ type: 'jsonb' })
  disclosures: HolderDisclosures;

  @Column({ name: 'kyc_status', type: 'text', default: 'not_submitted' })
  kyc_status: KycStatus;

  @Column({ name: 'kyc_submitted_at', type: 'timestamptz', nullable: true })
  kyc_submitted_at: Date | null;

  @Column({ name: 'kyc_decided_at', type: 'timestamptz', nullable: true })
  kyc_decided_at: Date | null;

  @Column({ name: 'kyc_rejection_reasons', type: 'text', array: true, default: () => "'{}'" })
  kyc_rejection_reasons: string[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  created_at: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updated_at: Date;
}
