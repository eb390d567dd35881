import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { TenantEntity } from 'src/core/tenancy/tenant.entity';
import { InvestmentAccountEntity } from 'src/modules/accounts/entities/investment-account.entity';

const OPEN = `"status" IN ('accepted', 'partially_filled')`;

/**
 * The `orders` table as its migrations made it. Trading reads and writes it with SQL of its own
 * (OrdersRepository, order-sql.ts); the entity is here so the schema check (the entities match the
 * migrations) holds this table too.
 */
@Entity('orders')
@Index('orders_account_created_idx', ['tenant_id', 'livemode', 'account_id', 'created_at', 'seq'])
@Index('orders_account_updated_idx', ['account_id', 'updated_at'])
@Index('orders_client_order_id_key', ['account_id', 'client_order_id'], { unique: true })
@Index('orders_open_by_asset_idx', ['tenant_id', 'livemode', 'asset_id', 'created_at'], { where: OPEN })
@Index('orders_open_by_market_idx', ['tenant_id', 'livemode', 'market'], { where: OPEN })
@Check('orders_amount_check', '("quantity" IS NULL) <> ("notional" IS NULL)')
@Check('orders_commission_type_check', `"commission_type" IN ('notional', 'qty', 'bps')`)
@Check(
  'orders_filled_check',
  '"filled_quantity" >= 0 AND ("quantity" IS NULL OR "filled_quantity" <= "quantity")',
)
@Check('orders_side_check', `"side" IN ('buy', 'sell')`)
@Check(
  'orders_status_check',
  `"status" IN ('accepted', 'partially_filled', 'filled', 'canceled', 'rejected')`,
)
@Check('orders_tif_check', `"time_in_force" IN ('day', 'gtc', 'opg', 'cls', 'ioc', 'fok')`)
@Check('orders_type_check', `"type" IN ('market', 'limit', 'stop', 'stop_limit', 'trailing_stop')`)
export class OrderEntity {
  @PrimaryColumn({ type: 'text' })
  id: string;

  /** Insertion order: the tiebreak of listings by created_at. */
  @Column({ type: 'bigint', generated: 'identity', generatedIdentity: 'ALWAYS' })
  seq: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenant_id: string;

  @ManyToOne(() => TenantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id', foreignKeyConstraintName: 'orders_tenant_id_fkey' })
  tenant?: TenantEntity;

  @Column({ type: 'boolean' })
  livemode: boolean;

  @Column({ name: 'investor_id', type: 'text', nullable: true })
  investor_id: string | null;

  @Column({ name: 'account_id', type: 'uuid' })
  account_id: string;

  @ManyToOne(() => InvestmentAccountEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id', foreignKeyConstraintName: 'orders_account_id_fkey' })
  account?: InvestmentAccountEntity;

  @Column({ name: 'asset_id', type: 'text' })
  asset_id: string;

  @Column({ type: 'text' })
  symbol: string;

  @Column({ name: 'asset_class', type: 'text' })
  asset_class: string;

  @Column({ type: 'text' })
  market: string;

  @Column({ type: 'text' })
  currency: string;

  @Column({ type: 'text' })
  side: string;

  @Column({ type: 'text' })
  type: string;

  @Column({ name: 'time_in_force', type: 'text' })
  time_in_force: string;

  @Column({ type: 'numeric', precision: 38, scale: 8, nullable: true })
  quantity: string | null;

  @Column({ type: 'numeric', precision: 38, scale: 8, nullable: true })
  notional: string | null;

  @Column({ name: 'limit_price', type: 'numeric', precision: 38, scale: 8, nullable: true })
  limit_price: string | null;

  @Column({ name: 'stop_price', type: 'numeric', precision: 38, scale: 8, nullable: true })
  stop_price: string | null;

  @Column({ name: 'trail_percent', type: 'numeric', precision: 38, scale: 8, nullable: true })
  trail_percent: string | null;

  @Column({ name: 'trail_price', type: 'numeric', precision: 38, scale: 8, nullable: true })
  trail_price: string | null;

  @Column({ name: 'water_mark', type: 'numeric', precision: 38, scale: 8, nullable: true })
  water_mark: string | null;

  @Column({ type: 'boolean', default: false })
  triggered: boolean;

  @Column({ name: 'extended_hours', type: 'boolean', default: false })
  extended_hours: boolean;

  @Column({ name: 'client_order_id', type: 'text' })
  client_order_id: string;

  @Column({ type: 'text' })
  status: string;

  @Column({ name: 'filled_quantity', type: 'numeric', precision: 38, scale: 8, default: 0 })
  filled_quantity: string;

  @Column({ name: 'filled_notional', type: 'numeric', precision: 38, scale: 16, default: 0 })
  filled_notional: string;

  @Column({ name: 'fill_count', type: 'integer', default: 0 })
  fill_count: number;

  @Column({ type: 'numeric', precision: 38, scale: 8, default: 0 })
  commission: string;

  @Column({ name: 'commission_type', type: 'text' })
  commission_type: string;

  @Column({ name: 'commission_rate', type: 'numeric', precision: 38, scale: 8, default: 0 })
  commission_rate: string;

  @Column({ name: 'hold_amount', type: 'numeric', precision: 38, scale: 8, default: 0 })
  hold_amount: string;

  @Column({ name: 'hold_used', type: 'numeric', precision: 38, scale: 8, default: 0 })
  hold_used: string;

  @Column({ name: 'settlement_date', type: 'date', nullable: true })
  settlement_date: string | null;

  @Column({ name: 'reject_reason', type: 'text', nullable: true })
  reject_reason: string | null;

  @Column({ name: 'cancel_reason', type: 'text', nullable: true })
  cancel_reason: string | null;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  metadata: Record<string, unknown>;

  @Column({ name: 'created_at', type: 'timestamptz' })
  created_at: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updated_at: Date;

  @Column({ name: 'filled_at', type: 'timestamptz', nullable: true })
  filled_at: Date | null;

  @Column({ name: 'canceled_at', type: 'timestamptz', nullable: true })
  canceled_at: Date | null;

  @Column({ name: 'price_decimals', type: 'smallint', default: 0 })
  price_decimals: number;
}
