import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

export const PRODUCTS = ['market_data', 'cash_management'] as const;
export type Product = (typeof PRODUCTS)[number];

/** A fintech partner. Products and flags are switched by support through the CLI only. */
@Entity('tenants')
export class TenantEntity {
  @PrimaryColumn({ type: 'text' })
  id: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'text', array: true, default: () => "'{}'" })
  products: Product[];

  @Column({ name: 'fixed_income_enabled', type: 'boolean', default: false })
  fixed_income_enabled: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  created_at: Date;
}
