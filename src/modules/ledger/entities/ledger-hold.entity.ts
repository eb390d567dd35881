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
import { LedgerAccountEntity } from 'src/modules/ledger/entities/ledger-account.entity';

export const HOLD_KINDS = ['deposit', 'withdrawal', 'order'] as const;
export type HoldKind = (typeof HOLD_KINDS)[number];

export const HOLD_STATUSES = ['pending', 'posted', 'voided'] as const;
export type HoldStatus = (typeof HOLD_STATUSES)[number];

/**
 * A two-phase transfer (TigerBeetle's pending transfer): `amount` reserved from the debit account
 * towards the credit account, later posted (all or part, by journals) or voided. While pending it
 * counts in the accounts' pending totals: a withdrawal or buy-order hold lowers available cash at
 * once; a deposit shows as pending until it is posted.
 */
@Entity('ledger_holds')
@Index('ledger_holds_key', ['tenant_id', 'livemode', 'hold_key'], { unique: true })
@Check('ledger_holds_kind_check', `"kind" IN ('deposit', 'withdrawal', 'order')`)
@Check('ledger_holds_status_check', `"status" IN ('pending', 'posted', 'voided')`)
@Check('ledger_holds_amount_check', '"amount" > 0 AND "pending_amount" >= 0 AND "pending_amount" <= "amount"')
export class LedgerHoldEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenant_id: string;

  @ManyToOne(() => TenantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id', foreignKeyConstraintName: 'ledger_holds_tenant_id_fkey' })
  tenant?: TenantEntity;

  @Column({ type: 'boolean' })
  livemode: boolean;

  /** Chosen by the caller, unique per tenant and mode: holding the same key again holds nothing. */
  @Column({ name: 'hold_key', type: 'text' })
  hold_key: string;

  @Column({ type: 'text' })
  kind: HoldKind;

  @Column({ name: 'debit_account_id', type: 'uuid' })
  debit_account_id: string;

  @ManyToOne(() => LedgerAccountEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'debit_account_id', foreignKeyConstraintName: 'ledger_holds_debit_account_id_fkey' })
  debit_account?: LedgerAccountEntity;

  @Column({ name: 'credit_account_id', type: 'uuid' })
  credit_account_id: string;

  @ManyToOne(() => LedgerAccountEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'credit_account_id', foreignKeyConstraintName: 'ledger_holds_credit_account_id_fkey' })
  credit_account?: LedgerAccountEntity;

  @Column({ type: 'text' })
  currency: string;

  @Column({ type: 'numeric', precision: 38, scale: 8 })
  amount: string;

  /** What is still reserved: amount minus what was posted or released. */
  @Column({ name: 'pending_amount', type: 'numeric', precision: 38, scale: 8 })
  pending_amount: string;

  @Column({ type: 'text', default: 'pending' })
  status: HoldStatus;

  @Column({ type: 'text', nullable: true })
  reference: string | null;

  /** Clock time it was placed. */
  @Column({ name: 'effective_at', type: 'timestamptz' })
  effective_at: Date;

  /** Clock time it was posted in full or voided. */
  @Column({ name: 'resolved_at', type: 'timestamptz', nullable: true })
  resolved_at: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  created_at: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updated_at: Date;
}
