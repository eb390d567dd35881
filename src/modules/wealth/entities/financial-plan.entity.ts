import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { TenantEntity } from 'src/core/tenancy/tenant.entity';
import { InvestmentAccountEntity } from 'src/modules/accounts/entities/investment-account.entity';
import type { PlanDocument } from 'src/modules/wealth/plan-document';

/** One financial plan per account: its current version (every version is in financial_plan_versions). */
@Entity('financial_plans')
@Check('financial_plans_status_check', `"status" IN ('active', 'archived')`)
@Index('financial_plans_account_key', ['account_id'], { unique: true })
export class FinancialPlanEntity {
  @PrimaryColumn({ type: 'text' })
  id: string;

  @Column({ type: 'text' })
  tenant_id: string;

  @ManyToOne(() => TenantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id', foreignKeyConstraintName: 'financial_plans_tenant_id_fkey' })
  tenant?: TenantEntity;

  @Column({ type: 'boolean' })
  livemode: boolean;

  @Column({ type: 'uuid' })
  account_id: string;

  @ManyToOne(() => InvestmentAccountEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id', foreignKeyConstraintName: 'financial_plans_account_id_fkey' })
  account?: InvestmentAccountEntity;

  @Column({ type: 'integer' })
  version: number;

  @Column({ type: 'text' })
  status: 'active' | 'archived';

  @Column({ type: 'jsonb' })
  document: PlanDocument;

  @Column({ type: 'timestamptz' })
  created_at: Date;

  @Column({ type: 'timestamptz' })
  updated_at: Date;
}
