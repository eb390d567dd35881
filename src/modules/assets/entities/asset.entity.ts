import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  OneToOne,
  PrimaryColumn,
  UpdateDateColumn,
} from 'typeorm';
import type { AssetClass } from 'src/modules/pricing/price-source';
import { AssetBondEntity } from 'src/modules/assets/entities/asset-bond.entity';

export type AssetStatus = 'active' | 'inactive';

/**
 * One listed instrument (spec, Asset). Reference data loaded from the shipped files or a provider
 * file by the importer; prices are not stored here (the price engine computes them).
 *
 * Search indexes: trigram GIN indexes on symbol and name serve partial matches; btree indexes on
 * upper(symbol) and lower(name) in the "C" collation serve exact and prefix matches in index order.
 * TypeORM cannot describe expression or operator-class indexes, so they are declared with
 * synchronize: false: the schema check still sees them and leaves them alone.
 */
@Entity('assets')
@Index('assets_market_symbol_key', ['market', 'symbol'], { unique: true })
@Index('assets_symbol_upper_idx', { synchronize: false })
@Index('assets_name_lower_idx', { synchronize: false })
@Index('assets_symbol_trgm_idx', { synchronize: false })
@Index('assets_name_trgm_idx', { synchronize: false })
@Check(
  'assets_class_check',
  `"class" IN ('equity', 'etf', 'bond', 'bill', 'note', 'mutual_fund', 'derivative', 'cryptocurrency', 'commodity', 'real_estate', 'cash')`,
)
@Check('assets_status_check', `"status" IN ('active', 'inactive')`)
export class AssetEntity {
  /** Deterministic uuid (v5 of market:symbol) for listed assets; the CUSIP for bonds. */
  @PrimaryColumn({ type: 'text' })
  id: string;

  @Column({ type: 'text' })
  class: AssetClass;

  /** ISO 3166-1 alpha-2, lower case; null for country-agnostic instruments (crypto). */
  @Column({ type: 'text', nullable: true })
  country: string | null;

  @Column({ type: 'text' })
  market: string;

  @Column({ name: 'market_name', type: 'text' })
  market_name: string;

  @Column({ name: 'market_country', type: 'text', nullable: true })
  market_country: string | null;

  @Column({ name: 'market_currency', type: 'text' })
  market_currency: string;

  @Column({ type: 'text' })
  symbol: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'text' })
  status: AssetStatus;

  @Column({ type: 'boolean' })
  tradable: boolean;

  @Column({ type: 'boolean' })
  marginable: boolean;

  @Column({ type: 'boolean' })
  shortable: boolean;

  @Column({ name: 'easy_to_borrow', type: 'boolean' })
  easy_to_borrow: boolean;

  @Column({ type: 'boolean' })
  fractionable: boolean;

  @Column({ name: 'fractional_eh_enabled', type: 'boolean' })
  fractional_eh_enabled: boolean;

  @Column({ type: 'text' })
  currency: string;

  /** Centre of the simulated price walk (percent of par for bonds). */
  @Column({ name: 'reference_price', type: 'numeric', precision: 24, scale: 10 })
  reference_price: string;

  @Column({ name: 'last_synced_at', type: 'timestamptz', nullable: true })
  last_synced_at: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  created_at: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updated_at: Date;

  @OneToOne(() => AssetBondEntity, (bond) => bond.asset)
  bond?: AssetBondEntity | null;
}
