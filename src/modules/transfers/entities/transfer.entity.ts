import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { TenantEntity } from 'src/core/tenancy/tenant.entity';
import { InvestmentAccountEntity } from 'src/modules/accounts/entities/investment-account.entity';

export const TRANSFER_TYPES = ['deposit', 'withdrawal'] as const;
export type TransferType = (typeof TRANSFER_TYPES)[number];

/** Spec, Wallet transaction status. */
export const TRANSFER_STATUSES = ['pending', 'processing', 'settled', 'failed', 'canceled'] as const;
export type TransferStatus = (typeof TRANSFER_STATUSES)[number];

export const TRANSFER_METHODS = ['ach', 'wire'] as const;
export type TransferMethod = (typeof TRANSFER_METHODS)[number];

/** How a test-mode transfer ends, decided by its bank account number (sandbox). */
export type SandboxOutcome = 'settle' | 'fail';

/**
 * One transfer, two views: the account-style wallet transaction (`transaction_id`, txn_) and the
 * envelope-style deposit or withdrawal (`id`, dep_ / wdr_). Money moves only through the ledger;
 * this row holds the transfer's state and terms. Business times are clock times.
 */
@Entity('transfers')
@Index('transfers_transaction_id_key', ['transaction_id'], { unique: true })
@Index('transfers_account_created_idx', ['tenant_id', 'livemode', 'account_id', 'created_at'])
@Check('transfers_type_check', `"type" IN ('deposit', 'withdrawal')`)
@Check('transfers_status_check', `"status" IN ('pending', 'processing', 'settled', 'failed', 'canceled')`)
@Check('transfers_method_check', `"method" IN ('ach', 'wire')`)
@Check(
  'transfers_amounts_check',
  '"amount" > 0 AND "fee" >= 0 AND "net_amount" > 0 AND "net_amount" + "fee" = "amount"',
)
export class TransferEntity {
  /** dep_... or wdr_...: the envelope view's id. */
  @PrimaryColumn({ type: 'text' })
  id: string;

  /** txn_...: the wallet transaction's id. */
  @Column({ name: 'transaction_id', type: 'text' })
  transaction_id: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenant_id: string;

  @ManyToOne(() => TenantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id', foreignKeyConstraintName: 'transfers_tenant_id_fkey' })
  tenant?: TenantEntity;

  @Column({ type: 'boolean' })
  livemode: boolean;

  /** Null for the firm account's rows (no investor). */
  @Column({ name: 'investor_id', type: 'text', nullable: true })
  investor_id: string | null;

  @Column({ name: 'account_id', type: 'uuid' })
  account_id: string;

  @ManyToOne(() => InvestmentAccountEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id', foreignKeyConstraintName: 'transfers_account_id_fkey' })
  account?: InvestmentAccountEntity;

  @Column({ type: 'text' })
  type: TransferType;

  @Column({ type: 'text' })
  status: TransferStatus;

  @Column({ type: 'text' })
  currency: string;

  @Column({ type: 'numeric', precision: 38, scale: 8 })
  amount: string;

  @Column({ type: 'numeric', precision: 38, scale: 8 })
  fee: string;

  @Column({ name: 'net_amount', type: 'numeric', precision: 38, scale: 8 })
  net_amount: string;

  @Column({ name: 'funding_type', type: 'text' })
  funding_type: 'fiat';

  /** The investor's bank account (fs_...). */
  @Column({ name: 'funding_source_id', type: 'text' })
  funding_source_id: string;

  @Column({ type: 'text' })
  method: TransferMethod;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ name: 'external_reference_id', type: 'text', nullable: true })
  external_reference_id: string | null;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  metadata: Record<string, string>;

  @Column({ name: 'failure_reason', type: 'text', nullable: true })
  failure_reason: string | null;

  /** Test mode: how it ends, from the bank account number; null in live mode. */
  @Column({ name: 'sandbox_outcome', type: 'text', nullable: true })
  sandbox_outcome: SandboxOutcome | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  created_at: Date;

  @Column({ name: 'processing_at', type: 'timestamptz', nullable: true })
  processing_at: Date | null;

  @Column({ name: 'settled_at', type: 'timestamptz', nullable: true })
  settled_at: Date | null;

  @Column({ name: 'failed_at', type: 'timestamptz', nullable: true })
  failed_at: Date | null;

  @Column({ name: 'canceled_at', type: 'timestamptz', nullable: true })
  canceled_at: Date | null;

  /** Real time of the last change. */
  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updated_at: Date;
}
