import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { TenantEntity } from 'src/core/tenancy/tenant.entity';
import { InvestmentAccountEntity } from 'src/modules/accounts/entities/investment-account.entity';

/**
 * The `positions` table as its migrations made it. Trading reads and writes it with SQL of its own
 * (PositionsRepository, HolderPositionsRepository); the entity is here so the schema check (the
 * entities match the migrations) holds this table too.
 */
@Entity('positions')
@Index('positions_account_asset_key', ['account_id', 'asset_id'], { unique: true })
@Index('positions_asset_account_idx', ['tenant_id', 'livemode', 'asset_id', 'account_id'])
@Check(
  'positions_quantity_check',
  '"quantity" >= 0 AND "held_quantity" >= 0 AND "held_quantity" <= "quantity"',
)
export class PositionEntity {
  @PrimaryColumn({ type: 'text' })
  id: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenant_id: string;

  @ManyToOne(() => TenantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id', foreignKeyConstraintName: 'positions_tenant_id_fkey' })
  tenant?: TenantEntity;

  @Column({ type: 'boolean' })
  livemode: boolean;

  @Column({ name: 'account_id', type: 'uuid' })
  account_id: string;

  @ManyToOne(() => InvestmentAccountEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id', foreignKeyConstraintName: 'positions_account_id_fkey' })
  account?: InvestmentAccountEntity;

  @Column({ name: 'asset_id', type: 'text' })
  asset_id: string;

  @Column({ type: 'text' })
  symbol: string;

  @Column({ name: 'asset_class', type: 'text' })
  asset_class: string;

  @Column({ type: 'text' })
  currency: string;

  @Column({ type: 'numeric', precision: 38, scale: 8, default: 0 })
  quantity: string;

  /** Units reserved for open sell orders. */
  @Column({ name: 'held_quantity', type: 'numeric', precision: 38, scale: 8, default: 0 })
  held_quantity: string;

  @Column({ name: 'total_cost_basis', type: 'numeric', precision: 38, scale: 8, default: 0 })
  total_cost_basis: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  created_at: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updated_at: Date;

  @Column({ name: 'last_transaction_at', type: 'timestamptz' })
  last_transaction_at: Date;
}
