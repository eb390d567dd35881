import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique } from 'typeorm';
import { TenantEntity } from 'src/core/tenancy/tenant.entity';
import { InvestmentAccountEntity } from 'src/modules/accounts/entities/investment-account.entity';

/*
 * The cash sweep's tables as their migrations made them. The module reads and writes them with SQL
 * of its own (AprTiersRepository, EnrollmentsRepository, InterestRepository); the entities are here
 * so the schema check (the entities match the migrations) holds these tables too.
 */

/** An APR tier of a tenant, mode and currency (the partner's rate and the correspondent's). */
@Entity('cash_sweep_tiers')
@Index('cash_sweep_tiers_active_name_key', { synchronize: false }) // unique on lower(name): an expression TypeORM cannot declare
@Index('cash_sweep_tiers_default_key', ['tenant_id', 'livemode', 'currency'], {
  unique: true,
  where: '"is_default"',
})
@Index('cash_sweep_tiers_tenant_created_idx', ['tenant_id', 'livemode', 'created_at', 'id'])
@Check('cash_sweep_tiers_default_active_check', `NOT "is_default" OR "status" = 'active'`)
@Check(
  'cash_sweep_tiers_rates_check',
  '"account_rate_bps" BETWEEN 0 AND 10000 AND "correspondent_rate_bps" BETWEEN 0 AND 10000 AND ' +
    '"account_rate_bps" + "correspondent_rate_bps" <= 10000',
)
@Check('cash_sweep_tiers_status_check', `"status" IN ('active', 'retired')`)
export class CashSweepTierEntity {
  @PrimaryColumn({ type: 'text' })
  id: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenant_id: string;

  @ManyToOne(() => TenantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id', foreignKeyConstraintName: 'cash_sweep_tiers_tenant_id_fkey' })
  tenant?: TenantEntity;

  @Column({ type: 'boolean' })
  livemode: boolean;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'text' })
  currency: string;

  @Column({ name: 'account_rate_bps', type: 'integer' })
  account_rate_bps: number;

  @Column({ name: 'correspondent_rate_bps', type: 'integer' })
  correspondent_rate_bps: number;

  @Column({ name: 'is_default', type: 'boolean', default: false })
  is_default: boolean;

  @Column({ type: 'text', default: 'active' })
  status: string;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  metadata: Record<string, unknown>;

  @Column({ name: 'created_at', type: 'timestamptz' })
  created_at: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updated_at: Date;
}

/** An account's enrollment in the sweep of one currency (its tier), or its opting out. */
@Entity('cash_sweep_enrollments')
@Index('cash_sweep_enrollments_scope_idx', ['tenant_id', 'livemode', 'currency', 'status'])
@Index('cash_sweep_enrollments_tier_idx', ['tier_id'])
@Check(
  'cash_sweep_enrollments_status_check',
  `("status" = 'enrolled' AND "tier_id" IS NOT NULL) OR ("status" = 'opted_out' AND "tier_id" IS NULL)`,
)
export class CashSweepEnrollmentEntity {
  @PrimaryColumn({ name: 'account_id', type: 'uuid' })
  account_id: string;

  @ManyToOne(() => InvestmentAccountEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id', foreignKeyConstraintName: 'cash_sweep_enrollments_account_id_fkey' })
  account?: InvestmentAccountEntity;

  @PrimaryColumn({ type: 'text' })
  currency: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenant_id: string;

  @Column({ type: 'boolean' })
  livemode: boolean;

  @Column({ name: 'investor_id', type: 'text' })
  investor_id: string;

  @Column({ type: 'text' })
  status: string;

  @Column({ name: 'tier_id', type: 'text', nullable: true })
  tier_id: string | null;

  @ManyToOne(() => CashSweepTierEntity)
  @JoinColumn({ name: 'tier_id', foreignKeyConstraintName: 'cash_sweep_enrollments_tier_id_fkey' })
  tier?: CashSweepTierEntity;

  @Column({ name: 'accrual_start', type: 'date' })
  accrual_start: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  created_at: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updated_at: Date;
}

/** One day's accrual of an account and currency: the cash it held and what each side earned. */
@Entity('cash_sweep_interest')
@Index('cash_sweep_interest_investor_idx', ['tenant_id', 'livemode', 'investor_id', 'date', 'currency'])
@Index('cash_sweep_interest_scope_date_idx', ['tenant_id', 'livemode', 'currency', 'date'])
export class CashSweepInterestEntity {
  @PrimaryColumn({ name: 'account_id', type: 'uuid' })
  account_id: string;

  @ManyToOne(() => InvestmentAccountEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id', foreignKeyConstraintName: 'cash_sweep_interest_account_id_fkey' })
  account?: InvestmentAccountEntity;

  @PrimaryColumn({ type: 'text' })
  currency: string;

  @PrimaryColumn({ type: 'date' })
  date: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenant_id: string;

  @Column({ type: 'boolean' })
  livemode: boolean;

  @Column({ name: 'investor_id', type: 'text' })
  investor_id: string;

  @Column({ name: 'apr_tier_id', type: 'text' })
  apr_tier_id: string;

  @Column({ name: 'apr_tier_name', type: 'text' })
  apr_tier_name: string;

  @Column({ name: 'cash_balance', type: 'numeric', precision: 38, scale: 8 })
  cash_balance: string;

  @Column({ name: 'account_rate_bps', type: 'integer' })
  account_rate_bps: number;

  @Column({ name: 'account_accrued_interest', type: 'numeric', precision: 38, scale: 8 })
  account_accrued_interest: string;

  @Column({ name: 'correspondent_rate_bps', type: 'integer' })
  correspondent_rate_bps: number;

  @Column({ name: 'correspondent_fee', type: 'numeric', precision: 38, scale: 8 })
  correspondent_fee: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  created_at: Date;
}

/** A month's interest paid to an account in one currency (once: the month key). */
@Entity('cash_sweep_payouts')
@Unique('cash_sweep_payouts_month_key', ['account_id', 'currency', 'month'])
@Index('cash_sweep_payouts_scope_idx', ['tenant_id', 'livemode', 'paid_at', 'id'])
@Check('cash_sweep_payouts_amount_check', '"amount" > 0')
export class CashSweepPayoutEntity {
  @PrimaryColumn({ type: 'text' })
  id: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenant_id: string;

  @Column({ type: 'boolean' })
  livemode: boolean;

  @Column({ name: 'account_id', type: 'uuid' })
  account_id: string;

  @ManyToOne(() => InvestmentAccountEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id', foreignKeyConstraintName: 'cash_sweep_payouts_account_id_fkey' })
  account?: InvestmentAccountEntity;

  @Column({ name: 'investor_id', type: 'text' })
  investor_id: string;

  @Column({ type: 'text' })
  currency: string;

  @Column({ type: 'text' })
  month: string;

  @Column({ type: 'numeric', precision: 38, scale: 8 })
  amount: string;

  @Column({ name: 'accrued_interest', type: 'numeric', precision: 38, scale: 8 })
  accrued_interest: string;

  @Column({ name: 'correspondent_fee', type: 'numeric', precision: 38, scale: 8 })
  correspondent_fee: string;

  @Column({ type: 'integer' })
  days: number;

  @Column({ name: 'paid_at', type: 'timestamptz' })
  paid_at: Date;
}
