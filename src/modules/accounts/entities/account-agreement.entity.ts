import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { InvestmentAccountEntity } from 'src/modules/accounts/entities/investment-account.entity';

/** A regulatory agreement (disclosure) the holder accepted, at one revision. */
@Entity('account_agreements')
@Index('account_agreements_account_agreement_revision_key', ['account_id', 'agreement', 'revision'], {
  unique: true,
})
export class AccountAgreementEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'account_id', type: 'uuid' })
  account_id: string;

  @ManyToOne(() => InvestmentAccountEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id', foreignKeyConstraintName: 'account_agreements_account_id_fkey' })
  account?: InvestmentAccountEntity;

  @Column({ type: 'text' })
  agreement: string;

  @Column({ type: 'text' })
  revision: string;

  @Column({ name: 'signed_at', type: 'timestamptz' })
  signed_at: Date;

  @Column({ name: 'ip_address', type: 'text' })
  ip_address: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  created_at: Date;
}
