import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { TenantEntity } from 'src/core/tenancy/tenant.entity';

/**
 * A double-entry journal: its entries sum to zero per currency (checked when it is posted and by
 * a deferred constraint trigger at commit). Append-only: corrections are reversing journals.
 */
@Entity('ledger_journals')
@Index('ledger_journals_key', ['tenant_id', 'livemode', 'journal_key'], { unique: true })
@Index('ledger_journals_reference_idx', ['tenant_id', 'livemode', 'reference'], {
  where: '"reference" IS NOT NULL',
})
export class LedgerJournalEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenant_id: string;

  @ManyToOne(() => TenantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id', foreignKeyConstraintName: 'ledger_journals_tenant_id_fkey' })
  tenant?: TenantEntity;

  @Column({ type: 'boolean' })
  livemode: boolean;

  /** Chosen by the poster, unique per tenant and mode: posting the same key again posts nothing. */
  @Column({ name: 'journal_key', type: 'text' })
  journal_key: string;

  @Column({ type: 'text' })
  kind: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  /** The business object it records (txn_..., ord_...). */
  @Column({ type: 'text', nullable: true })
  reference: string | null;

  /** When it took effect, in the tenant's clock time. */
  @Column({ name: 'effective_at', type: 'timestamptz' })
  effective_at: Date;

  @Column({ name: 'reverses_journal_id', type: 'uuid', nullable: true })
  reverses_journal_id: string | null;

  @ManyToOne(() => LedgerJournalEntity)
  @JoinColumn({ name: 'reverses_journal_id', foreignKeyConstraintName: 'ledger_journals_reverses_fkey' })
  reverses?: LedgerJournalEntity;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  created_at: Date;
}
