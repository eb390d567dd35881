import { Check, Column, Entity, Index, JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';
import type { AccrualBasis, CouponFrequency } from 'src/modules/fixed-income/bond-math';
import { AssetEntity } from 'src/modules/assets/entities/asset.entity';

/**
 * Static terms of a bond, bill or note (spec, Bond attributes). Values that move with time or price
 * (accrued interest, yields, next coupon, close price date) are computed when read.
 */
@Entity('asset_bonds')
@Index('asset_bonds_cusip_key', ['cusip'], { unique: true })
@Index('asset_bonds_isin_key', ['isin'], { unique: true })
@Check('asset_bonds_bond_status_check', `"bond_status" IN ('outstanding', 'pre_issuance', 'matured')`)
@Check(
  'asset_bonds_bond_type_check',
  `"bond_type" IN ('treasury', 'corporate', 'municipal', 'agency', 'sovereign')`,
)
@Check('asset_bonds_coupon_frequency_check', `"coupon_frequency" IN (0, 1, 2, 4, 12)`)
@Check('asset_bonds_accrual_basis_check', `"accrual_basis" IN ('ACT/ACT', 'ACT/360', '30/360', 'ACT/365')`)
export class AssetBondEntity {
  @PrimaryColumn({ name: 'asset_id', type: 'text' })
  asset_id: string;

  @OneToOne(() => AssetEntity, (asset) => asset.bond, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'asset_id', foreignKeyConstraintName: 'asset_bonds_asset_id_fkey' })
  asset?: AssetEntity;

  @Column({ type: 'text' })
  cusip: string;

  @Column({ type: 'text' })
  isin: string;

  @Column({ name: 'bond_status', type: 'text' })
  bond_status: 'outstanding' | 'pre_issuance' | 'matured';

  @Column({ name: 'bond_type', type: 'text' })
  bond_type: 'treasury' | 'corporate' | 'municipal' | 'agency' | 'sovereign';

  @Column({ name: 'bond_subtype', type: 'text', nullable: true })
  bond_subtype: string | null;

  @Column({ name: 'maturity_date', type: 'date', nullable: true })
  maturity_date: string | null;

  @Column({ name: 'issue_date', type: 'date', nullable: true })
  issue_date: string | null;

  @Column({ name: 'dated_date', type: 'date', nullable: true })
  dated_date: string | null;

  @Column({ name: 'first_coupon_date', type: 'date', nullable: true })
  first_coupon_date: string | null;

  /** Final coupon payment date. */
  @Column({ name: 'last_coupon_date', type: 'date', nullable: true })
  last_coupon_date: string | null;

  /** Annual rate as a fraction ('0.04625'). */
  @Column({ name: 'coupon_rate', type: 'numeric', precision: 12, scale: 8 })
  coupon_rate: string;

  @Column({ name: 'coupon_type', type: 'text' })
  coupon_type: string;

  @Column({ name: 'coupon_frequency', type: 'smallint' })
  coupon_frequency: CouponFrequency;

  @Column({ name: 'accrual_basis', type: 'text' })
  accrual_basis: AccrualBasis;

  @Column({ name: 'face_value', type: 'numeric', precision: 20, scale: 4 })
  face_value: string;

  @Column({ name: 'min_increment', type: 'numeric', precision: 20, scale: 4 })
  min_increment: string;

  @Column({ name: 'settlement_period', type: 'smallint' })
  settlement_period: number;

  /** Date of the provider's reference price (its close_price_date). */
  @Column({ name: 'reference_price_date', type: 'date', nullable: true })
  reference_price_date: string | null;

  @Column({ type: 'boolean' })
  callable: boolean;

  @Column({ type: 'boolean' })
  puttable: boolean;

  @Column({ type: 'boolean' })
  convertible: boolean;

  @Column({ type: 'boolean' })
  perpetual: boolean;

  @Column({ name: 'next_call_date', type: 'date', nullable: true })
  next_call_date: string | null;

  @Column({ name: 'next_call_price', type: 'numeric', precision: 12, scale: 6, nullable: true })
  next_call_price: string | null;

  @Column({ name: 'call_type', type: 'text', nullable: true })
  call_type: string | null;

  @Column({ type: 'text', nullable: true })
  issuer: string | null;

  @Column({ type: 'text', nullable: true })
  ticker: string | null;

  @Column({ type: 'text', nullable: true })
  sector: string | null;

  @Column({ type: 'text', nullable: true })
  seniority: string | null;

  @Column({ name: 'country_domicile', type: 'text', nullable: true })
  country_domicile: string | null;

  @Column({ type: 'text', nullable: true })
  rating: string | null;

  @Column({ name: 'sp_rating', type: 'text', nullable: true })
  sp_rating: string | null;

  @Column({ name: 'sp_outlook', type: 'text', nullable: true })
  sp_outlook: string | null;
}
