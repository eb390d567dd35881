import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  BudgetLineDto,
  ExternalAccountDto,
  LifeEventDto,
} from 'src/modules/wealth/dto/financial-plan-input.dto';
import {
  GOAL_STATUSES,
  GOAL_TYPES,
  PLAN_STATUSES,
  RISK_CAPACITIES,
} from 'src/modules/wealth/dto/plan-fields';

const DATE = { type: String, format: 'date' } as const;

export class ProjectionPointDto {
  @ApiProperty({
    type: 'integer',
    format: 'int32',
    minimum: 1,
    maximum: 1200,
    description: 'Months from today.',
    example: 1,
  })
  month: number;

  @ApiProperty({ ...DATE, description: 'Month end of the contribution.', example: '2026-12-22' })
  date: string;

  @ApiProperty({ description: 'Projected amount after that month\u2019s contribution.', example: '25875.00' })
  projected_amount: string;
}

export class ProjectionRangeDto {
  @ApiProperty({
    description:
      'Seed of the simulation (from the plan id, version and goal id): the same version answers the same range.',
    example: '9f2c4e1a7b3d5f60',
  })
  seed: string;

  @ApiProperty({
    type: 'integer',
    format: 'int32',
    minimum: 1,
    maximum: 100000,
    description: 'Simulated paths.',
    example: 500,
  })
  paths: number;

  @ApiProperty({
    description: 'Yearly volatility used, from risk_capacity (low 0.06, medium 0.12, high 0.20).',
    example: '0.12',
  })
  volatility: string;

  @ApiProperty({ description: 'Amount at the target date that 90 % of paths exceed.', example: '610233.12' })
  p10: string;

  @ApiProperty({ description: 'Median amount at the target date.', example: '702118.40' })
  p50: string;

  @ApiProperty({ description: 'Amount at the target date that 10 % of paths exceed.', example: '811406.77' })
  p90: string;
}

export class GoalProjectionDto {
  @ApiProperty({
    description: 'Monthly rate used: r/12, or the real rate (1 + r/12)/(1 + \u03c0/12) − 1 with inflation.',
    example: '0.005',
  })
  monthly_rate: string;

  @ApiProperty({
    type: [ProjectionPointDto],
    maxItems: 720,
    description: 'One point per month end until the target date.',
  })
  monthly_path: ProjectionPointDto[];

  @ApiProperty({ type: ProjectionRangeDto })
  range: ProjectionRangeDto;
}

export class GoalDto {
  @ApiProperty({ example: 'goal_5TqVn2Lm9XbPa7Rz0cWd3k' })
  goal_id: string;

  @ApiProperty({ example: 'Retirement at 60' })
  name: string;

  @ApiProperty({ enum: GOAL_TYPES, example: 'retirement' })
  goal_type: string;

  @ApiProperty({ example: '500000.00' })
  target_amount: string;

  @ApiProperty({ ...DATE, example: '2046-06-30' })
  target_date: string;

  @ApiProperty({
    description: 'Saved so far; the account\u2019s equity when linked_to_account.',
    example: '25000.00',
  })
  current_amount: string;

  @ApiProperty({
    description: 'current / target as a percentage with 2 decimals, at most "100.00".',
    example: '5.00',
  })
  progress_percent: string;

  @ApiProperty({ description: 'target − current, at least zero.', example: '475000.00' })
  amount_remaining: string;

  @ApiProperty({ example: '750.00' })
  monthly_contribution: string;

  @ApiProperty({
    type: String,
    format: 'date',
    nullable: true,
    description: 'Month end when the projection first reaches the target; null when not within 100 years.',
    example: '2045-01-22',
  })
  projected_completion_date: string | null;

  @ApiProperty({ description: 'projected_completion_date is on or before target_date.', example: true })
  on_track: boolean;

  @ApiProperty({ example: false })
  linked_to_account: boolean;

  @ApiProperty({ enum: GOAL_STATUSES, example: 'active' })
  status: string;

  @ApiPropertyOptional({ type: GoalProjectionDto, description: 'Only with include_projections=true.' })
  projection?: GoalProjectionDto;
}

export class IncomeViewDto {
  @ApiProperty({ example: '6500.00' })
  total_monthly_income: string;

  @ApiProperty({ type: [BudgetLineDto], maxItems: 50 })
  sources: BudgetLineDto[];
}

export class ExpensesViewDto {
  @ApiProperty({ example: '4100.00' })
  total_monthly_expenses: string;

  @ApiProperty({ type: [BudgetLineDto], maxItems: 50 })
  categories: BudgetLineDto[];
}

export class InvestmentOutlookViewDto {
  @ApiProperty({ example: '0.06' })
  expected_return_rate: string;

  @ApiProperty({ type: String, nullable: true, example: '0.025' })
  inflation_assumption: string | null;

  @ApiProperty({ enum: RISK_CAPACITIES, example: 'medium' })
  risk_capacity: string;
}

/** Spec, Financial plan. */
export class FinancialPlanDto {
  @ApiProperty({ example: 'fp_7Hq2Lm9XbVa3Pn0Rz4cWdk' })
  financial_plan_id: string;

  @ApiProperty({ format: 'uuid', example: '7f0e6c3e-3b4f-4f7e-9a55-1c2d3e4f5a6b' })
  account_id: string;

  @ApiProperty({
    type: 'integer',
    format: 'int32',
    minimum: 1,
    maximum: 2147483647,
    description: 'Snapshot version: 1 at creation, +1 on every write.',
    example: 3,
  })
  version: number;

  @ApiProperty({ type: [GoalDto], maxItems: 20 })
  goals: GoalDto[];

  @ApiProperty({ type: [LifeEventDto], maxItems: 50 })
  life_events: LifeEventDto[];

  @ApiProperty({ type: [ExternalAccountDto], maxItems: 50 })
  external_accounts: ExternalAccountDto[];

  @ApiProperty({ type: IncomeViewDto })
  income: IncomeViewDto;

  @ApiProperty({ type: ExpensesViewDto })
  expenses: ExpensesViewDto;

  @ApiProperty({ type: InvestmentOutlookViewDto })
  investment_outlook: InvestmentOutlookViewDto;

  @ApiProperty({ enum: PLAN_STATUSES, example: 'active' })
  status: string;

  @ApiProperty({
    format: 'date-time',
    description: 'Clock time of the first write.',
    example: '2026-11-22T15:30:00.000Z',
  })
  created_at: string;

  @ApiProperty({
    format: 'date-time',
    description: 'Clock time of this version\u2019s write.',
    example: '2026-11-22T16:02:11.000Z',
  })
  updated_at: string;
}
