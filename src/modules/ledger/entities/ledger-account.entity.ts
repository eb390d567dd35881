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

/** A ledger account; see LEDGER_ACCOUNT_KINDS for kinds and which keep running totals. */
@Entity('ledger_accounts')
@Index('ledger_accounts_owner_idx', ['owner_id'], { where: '"owner_id" IS NOT NULL' })
@Check(
  'ledger_accounts_totals_check',
  '"debits_posted" >= 0 AND "credits_posted" >= 0 AND "debits_pending" >= 0 AND "credits_pending" >= 0',
)
@Check(
  'ledger_accounts_no_overdraft_check',
  'NOT "no_overdraft" OR "debits_posted" + "debits_pending" <= "credits_posted"',
)
export class LedgerAccountEntity {
  /** uuid v5 of tenant, mode, kind, owner and currency (ledgerAccountId). */
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenant_id: string;

  @ManyToOne(() => TenantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id', foreignKeyConstraintName: 'ledger_accounts_tenant_id_fkey' })
  tenant?: TenantEntity;

  @Column({ type: 'boolean' })
  livemode: boolean;

  @Column({ type: 'text' })
  kind: string;

  /** Investment account id for per-account kinds. */
  @Column({ name: 'owner_id', type: 'text', nullable: true })
  owner_id: string | null;

  @Column({ type: 'text' })
  currency: string;

  @Column({ name: 'keeps_totals', type: 'boolean' })
  keeps_totals: boolean;

  @Column({ name: 'no_overdraft', type: 'boolean' })
  no_overdraft: boolean;

  @Column({ name: 'debits_posted', type: 'numeric', precision: 38, scale: 8, default: 0 })
  debits_posted: string;

  @Column({ name: 'credits_posted', type: 'numeric', precision: 38, scale: 8, default: 0 })
  credits_posted: string;

  @Column({ name: 'debits_pending', type: 'numeric', precision: 38, scale: 8, default: 0 })
  debits_pending: string;

  @Column({ name: 'credits_pending', type: 'numeric', precision: 38, scale: 8, default: 0 })
  credits_pending: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  created_at: Date;
}
