import { Check, Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { TenantEntity } from 'src/core/tenancy/tenant.entity';

/**
 * A tenant's transfer terms, set by support with the CLI (`transfers:settings`). No row: the
 * defaults (no fees, 1 to 1,000,000 per transfer). Fees: flat (in the transfer's currency) plus
 * basis points of the amount, for deposits and withdrawals separately.
 */
@Entity('transfer_settings')
@Check(
  'transfer_settings_values_check',
  '"deposit_fee_flat" >= 0 AND "deposit_fee_bps" BETWEEN 0 AND 10000 AND "withdrawal_fee_flat" >= 0 ' +
    'AND "withdrawal_fee_bps" BETWEEN 0 AND 10000 AND "min_amount" > 0 AND "max_amount" >= "min_amount"',
)
export class TransferSettingsEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'text' })
  tenant_id: string;

  @ManyToOne(() => TenantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id', foreignKeyConstraintName: 'transfer_settings_tenant_id_fkey' })
  tenant?: TenantEntity;

  @Column({ name: 'deposit_fee_flat', type: 'numeric', precision: 20, scale: 4, default: 0 })
  deposit_fee_flat: string;

  @Column({ name: 'deposit_fee_bps', type: 'integer', default: 0 })
  deposit_fee_bps: number;

  @Column({ name: 'withdrawal_fee_flat', type: 'numeric', precision: 20, scale: 4, default: 0 })
  withdrawal_fee_flat: string;

  @Column({ name: 'withdrawal_fee_bps', type: 'integer', default: 0 })
  withdrawal_fee_bps: number;

  @Column({ name: 'min_amount', type: 'numeric', precision: 20, scale: 4, default: 1 })
  min_amount: string;

  @Column({ name: 'max_amount', type: 'numeric', precision: 20, scale: 4, default: 1000000 })
  max_amount: string;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updated_at: Date;
}
