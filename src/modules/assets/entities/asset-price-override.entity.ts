import {
  Column,
  CreateDateColumn,
  Entity,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  UpdateDateColumn,
} from 'typeorm';
import { TenantEntity } from 'src/core/tenancy/tenant.entity';
import { AssetEntity } from 'src/modules/assets/entities/asset.entity';

/**
 * A price a tester fixed with POST /v1/test_helpers/prices. Overrides belong to one tenant and apply
 * to its test-mode reads only, so testers never disturb each other or live data.
 */
@Entity('asset_price_overrides')
export class AssetPriceOverrideEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'text' })
  tenant_id: string;

  @PrimaryColumn({ name: 'asset_id', type: 'text' })
  asset_id: string;

  @ManyToOne(() => TenantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id', foreignKeyConstraintName: 'asset_price_overrides_tenant_id_fkey' })
  tenant?: TenantEntity;

  @ManyToOne(() => AssetEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'asset_id', foreignKeyConstraintName: 'asset_price_overrides_asset_id_fkey' })
  asset?: AssetEntity;

  @Column({ type: 'numeric', precision: 24, scale: 10 })
  price: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  created_at: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updated_at: Date;
}
