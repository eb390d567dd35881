import { Check, Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { FinancialPlanEntity } from 'src/modules/wealth/entities/financial-plan.entity';
import type { PlanDocument } from 'src/modules/wealth/plan-document';

/** Every version of a plan as it was written, read back with `?version=N`. Never changed. */
@Entity('financial_plan_versions')
@Check('financial_plan_versions_status_check', `"status" IN ('active', 'archived')`)
export class FinancialPlanVersionEntity {
  @PrimaryColumn({ type: 'text' })
  financial_plan_id: string;

  @ManyToOne(() => FinancialPlanEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'financial_plan_id', foreignKeyConstraintName: 'financial_plan_versions_plan_id_fkey' })
  plan?: FinancialPlanEntity;

  @PrimaryColumn({ type: 'integer' })
  version: number;

  @Column({ type: 'text' })
  status: 'active' | 'archived';

  @Column({ type: 'jsonb' })
  document: PlanDocument;

  /** Clock time of this version's write. */
  @Column({ type: 'timestamptz' })
  written_at: Date;
}
