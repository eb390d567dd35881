import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { OrderEntity } from 'src/modules/trading/entities/order.entity';

/**
 * The `executions` table (one row per fill of an order) as its migrations made it; trading writes
 * it with SQL of its own (ExecutionsRepository). Here for the schema check.
 */
@Entity('executions')
@Index('executions_order_sequence_key', ['order_id', 'sequence'], { unique: true })
@Check('executions_quantity_check', '"quantity" > 0 AND "price" > 0')
export class ExecutionEntity {
  @PrimaryColumn({ type: 'text' })
  id: string;

  @Column({ name: 'order_id', type: 'text' })
  order_id: string;

  @ManyToOne(() => OrderEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'order_id', foreignKeyConstraintName: 'executions_order_id_fkey' })
  order?: OrderEntity;

  @Column({ type: 'integer' })
  sequence: number;

  @Column({ name: 'tenant_id', type: 'text' })
  tenant_id: string;

  @Column({ type: 'boolean' })
  livemode: boolean;

  @Column({ name: 'account_id', type: 'uuid' })
  account_id: string;

  @Column({ name: 'asset_id', type: 'text' })
  asset_id: string;

  @Column({ type: 'text' })
  symbol: string;

  @Column({ type: 'text' })
  side: string;

  @Column({ type: 'numeric', precision: 38, scale: 8 })
  quantity: string;

  @Column({ type: 'numeric', precision: 38, scale: 8 })
  price: string;

  @Column({ name: 'gross_amount', type: 'numeric', precision: 38, scale: 8 })
  gross_amount: string;

  @Column({ name: 'accrued_interest', type: 'numeric', precision: 38, scale: 8, default: 0 })
  accrued_interest: string;

  @Column({ type: 'numeric', precision: 38, scale: 8 })
  commission: string;

  @Column({ name: 'net_amount', type: 'numeric', precision: 38, scale: 8 })
  net_amount: string;

  @Column({ name: 'price_source', type: 'text' })
  price_source: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  created_at: Date;
}
