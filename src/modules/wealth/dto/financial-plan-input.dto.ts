import { NullMeansNotSent } from 'src/core/http/body-shape';
import { ApiProperty, ApiPropertyOptional, OmitType, PartialType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  Length,
  ValidateNested,
} from 'class-validator';
import {
  AmountField,
  DateField,
  GOAL_STATUSES,
  GOAL_TYPES,
  GoalStatus,
  GoalType,
  NameField,
  RateField,
  RISK_CAPACITIES,
} from 'src/modules/wealth/dto/plan-fields';

export const MAX_GOALS = 20;
export const MAX_ITEMS = 50;

/** A goal as the partner writes it (POST .../goals, and each item of a PUT). */
@NullMeansNotSent()
export class GoalInputDto {
  @NameField('Retirement at 60')
  name: string;

  @ApiProperty({ enum: GOAL_TYPES, example: 'retirement' })
  @IsIn(GOAL_TYPES)
  goal_type: GoalType;

  @AmountField({ required: true, description: 'Greater than zero.', example: '500000.00' })
  target_amount: string;

  @DateField({
    required: true,
    description: 'After today (clock date) and within 60 years.',
    example: '2046-06-30',
  })
  target_date: string;

  @AmountField({
    required: false,
    description:
      'Saved so far (default 0). Not allowed when `linked_to_account` is true: the account\u2019s equity is used.',
    example: '25000.00',
  })
  current_amount?: string;

  @AmountField({ required: false, description: 'Paid in at each month end (default 0).', example: '750.00' })
  monthly_contribution?: string;

  @ApiPropertyOptional({
    type: Boolean,
    default: false,
    description: 'true: current_amount follows the account\u2019s equity (settled cash plus positions).',
    example: false,
  })
  @IsOptional()
  @IsBoolean()
  linked_to_account?: boolean;

  @ApiPropertyOptional({ enum: GOAL_STATUSES, default: 'active', example: 'active' })
  @IsOptional()
  @IsIn(GOAL_STATUSES)
  status?: GoalStatus;
}

/** A goal inside a PUT body: may carry the goal_id of a goal the plan already has, to keep it. */
@NullMeansNotSent()
export class PlanGoalInputDto extends GoalInputDto {
  @ApiPropertyOptional({
    maxLength: 64,
    description:
      'Keeps an existing goal\u2019s id; omit for a new goal. An id the plan does not have is 400.',
    example: 'goal_5TqVn2Lm9XbPa7Rz0cWd3k',
  })
  @IsOptional()
  @IsString()
  @Length(1, 64)
  goal_id?: string;
}

/** PATCH .../goals/{goal_id}: any goal field. Null counts as not sent in every plan input (the module decided so). */
@NullMeansNotSent()
export class UpdateGoalDto extends PartialType(GoalInputDto) {}

@NullMeansNotSent()
export class LifeEventDto {
  @NameField('Child starts university')
  name: string;

  @DateField({ required: true, description: 'When it happens.', example: '2040-09-01' })
  date: string;

  @AmountField({ required: false, description: 'Expected cost, if any.', example: '40000.00' })
  amount?: string;
}

@NullMeansNotSent()
export class ExternalAccountDto {
  @NameField('Mortgage')
  name: string;

  @ApiProperty({ enum: ['asset', 'liability'], example: 'liability' })
  @IsIn(['asset', 'liability'])
  type: 'asset' | 'liability';

  @AmountField({
    required: true,
    description: 'Current balance (a liability\u2019s is what is owed).',
    example: '210000.00',
  })
  balance: string;
}

@NullMeansNotSent()
export class BudgetLineDto {
  @NameField('Salary')
  name: string;

  @AmountField({ required: true, example: '5200.00' })
  monthly_amount: string;
}

@NullMeansNotSent()
export class IncomeDto {
  @AmountField({ required: true, example: '6500.00' })
  total_monthly_income: string;

  @ApiPropertyOptional({ type: [BudgetLineDto], maxItems: MAX_ITEMS })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_ITEMS)
  @ValidateNested({ each: true })
  @Type(() => BudgetLineDto)
  sources?: BudgetLineDto[];
}

@NullMeansNotSent()
export class ExpensesDto {
  @AmountField({ required: true, example: '4100.00' })
  total_monthly_expenses: string;

  @ApiPropertyOptional({ type: [BudgetLineDto], maxItems: MAX_ITEMS })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_ITEMS)
  @ValidateNested({ each: true })
  @Type(() => BudgetLineDto)
  categories?: BudgetLineDto[];
}

@NullMeansNotSent()
export class InvestmentOutlookDto {
  @RateField({ description: 'Yearly, from -0.5 to 1 (default "0.05").', example: '0.06' })
  expected_return_rate?: string;

  @RateField({
    description: 'Yearly, from -0.1 to 0.5; null (default) projects in nominal money.',
    example: '0.025',
    nullable: true,
  })
  inflation_assumption?: string | null;

  @ApiPropertyOptional({ enum: RISK_CAPACITIES, default: 'medium', example: 'medium' })
  @IsOptional()
  @IsIn(RISK_CAPACITIES)
  risk_capacity?: (typeof RISK_CAPACITIES)[number];
}

/** PUT .../financial-plan: the whole plan; fields left out take their defaults. */
@NullMeansNotSent()
export class FinancialPlanInputDto {
  @ApiPropertyOptional({ type: [PlanGoalInputDto], maxItems: MAX_GOALS })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_GOALS)
  @ValidateNested({ each: true })
  @Type(() => PlanGoalInputDto)
  goals?: PlanGoalInputDto[];

  @ApiPropertyOptional({ type: [LifeEventDto], maxItems: MAX_ITEMS })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_ITEMS)
  @ValidateNested({ each: true })
  @Type(() => LifeEventDto)
  life_events?: LifeEventDto[];

  @ApiPropertyOptional({ type: [ExternalAccountDto], maxItems: MAX_ITEMS })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_ITEMS)
  @ValidateNested({ each: true })
  @Type(() => ExternalAccountDto)
  external_accounts?: ExternalAccountDto[];

  @ApiPropertyOptional({ type: IncomeDto })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => IncomeDto)
  income?: IncomeDto;

  @ApiPropertyOptional({ type: ExpensesDto })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => ExpensesDto)
  expenses?: ExpensesDto;

  @ApiPropertyOptional({ type: InvestmentOutlookDto })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => InvestmentOutlookDto)
  investment_outlook?: InvestmentOutlookDto;
}

/**
 * PATCH .../financial-plan: the fields sent replace the stored ones (investment_outlook field by
 * field); goals change through their own routes.
 */
@NullMeansNotSent()
export class UpdateFinancialPlanDto extends OmitType(FinancialPlanInputDto, ['goals'] as const) {}
