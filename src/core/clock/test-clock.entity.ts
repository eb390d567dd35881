import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { TenantEntity } from 'src/core/tenancy/tenant.entity';

/**
 * A tenant's test-mode clock. No row, or `frozen_time` null: real time. `version` grows with every
 * change, so processes applying change notifications out of order keep the newest state.
 */
@Entity('test_clocks')
export class TestClockEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'text' })
  tenant_id: string;

  @ManyToOne(() => TenantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id', foreignKeyConstraintName: 'test_clocks_tenant_id_fkey' })
  tenant?: TenantEntity;

  @Column({ name: 'frozen_time', type: 'timestamptz', nullable: true })
  frozen_time: Date | null;

  @Column({ type: 'bigint', default: 0 })
  version: string;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updated_at: Date;
}
