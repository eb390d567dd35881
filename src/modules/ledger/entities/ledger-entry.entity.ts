import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { TenantEntity } from 'src/core/tenancy/tenant.entity';
import { LedgerAccountEntity } from 'src/modules/ledger/entities/ledger-account.entity';
import { LedgerJournalEntity } from 'src/modules/ledger/entities/ledger-journal.entity';

/** One leg of a journal: a positive amount debited or credited to one ledger account. Immutable. */
@Entity('ledger_entries')
@Index('ledger_entries_journal_idx', ['journal_id'])
@Index('ledger_entries_account_idx', ['ledger_account_id', 'effective_at'])
@Check('ledger_entries_direction_check', `"direction" IN ('debit', 'credit')`)
@Check('ledger_entries_amount_check', '"amount" > 0')
export class LedgerEntryEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id: string;

  @Column({ name: 'journal_id', type: 'uuid' })
  journal_id: string;

  @ManyToOne(() => LedgerJournalEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'journal_id', foreignKeyConstraintName: 'ledger_entries_journal_id_fkey' })
  journal?: LedgerJournalEntity;

  @Column({ name: 'tenant_id', type: 'text' })
  tenant_id: string;

  @ManyToOne(() => TenantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id', foreignKeyConstraintName: 'ledger_entries_tenant_id_fkey' })
  tenant?: TenantEntity;

  @Column({ name: 'ledger_account_id', type: 'uuid' })
  ledger_account_id: string;

  @ManyToOne(() => LedgerAccountEntity, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'ledger_account_id',
    foreignKeyConstraintName: 'ledger_entries_ledger_account_id_fkey',
  })
  ledger_account?: LedgerAccountEntity;

  @Column({ type: 'text' })
  currency: string;

  @Column({ type: 'text' })
  direction: 'debit' | 'credit';

  @Column({ type: 'numeric', precision: 38, scale: 8 })
  amount: string;

  /** The journal's effective time, kept on the entry for balance-at-an-instant reads. */
  @Column({ name: 'effective_at', type: 'timestamptz' })
  effective_at: Date;
}
