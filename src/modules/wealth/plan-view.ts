import { Money } from 'src/core/money/money';
import type { FinancialPlanDto, GoalDto, GoalProjectionDto } from 'src/modules/wealth/dto/financial-plan.dto';
import type { PlanDocument, StoredGoal } from 'src/modules/wealth/plan-document';
import { addMonths } from 'src/modules/wealth/projections/calendar-months';
import {
  goalProgress,
  GoalProjectionInput,
  monthlyRate,
  monthsUntilTarget,
  projectedPath,
} from 'src/modules/wealth/projections/goal-projection';
import { projectionRange, rangeSeed } from 'src/modules/wealth/projections/projection-range';

/** One version of a plan, as stored. */
export interface PlanVersion {
  id: string;
  accountId: string;
  version: number;
  status: 'active' | 'archived';
  document: PlanDocument;
  createdAt: Date;
  writtenAt: Date;
}

/** What a read knows besides the stored version: today (clock), the account's equity, decimals. */
export interface ViewContext {
  today: string;
  equity: string;
  dp: number;
  includeProjections: boolean;
}

/** The spec's Financial plan record, every goal with its figures computed for today. */
export function financialPlanView(plan: PlanVersion, context: ViewContext): FinancialPlanDto {
  const d = plan.document;
  return {
    financial_plan_id: plan.id,
    account_id: plan.accountId,
    version: plan.version,
    goals: d.goals.map((goal) => goalView(plan, goal, context)),
    life_events: d.life_events,
    external_accounts: d.external_accounts,
    income: d.income,
    expenses: d.expenses,
    investment_outlook: d.investment_outlook,
    status: plan.status,
    created_at: plan.createdAt.toISOString(),
    updated_at: plan.writtenAt.toISOString(),
  };
}

function goalView(plan: PlanVersion, goal: StoredGoal, context: ViewContext): GoalDto {
  const outlook = plan.document.investment_outlook;
  const current = new Money(goal.linked_to_account ? context.equity : (goal.current_amount ?? 0));
  const input: GoalProjectionInput = {
    current,
    target: new Money(goal.target_amount),
    monthlyContribution: new Money(goal.monthly_contribution),
    annualReturn: new Money(outlook.expected_return_rate),
    inflation: outlook.inflation_assumption === null ? null : new Money(outlook.inflation_assumption),
    today: context.today,
    targetDate: goal.target_date,
    dp: context.dp,
  };
  const progress = goalProgress(input);
  const view: GoalDto = {
    goal_id: goal.goal_id,
    name: goal.name,
    goal_type: goal.goal_type,
    target_amount: goal.target_amount,
    target_date: goal.target_date,
    current_amount: current.toFixed(context.dp),
    progress_percent: progress.progressPercent,
    amount_remaining: progress.amountRemaining,
    monthly_contribution: goal.monthly_contribution,
    projected_completion_date: progress.projectedCompletionDate,
    on_track: progress.onTrack,
    linked_to_account: goal.linked_to_account,
    status: goal.status,
  };
  if (context.includeProjections) {
    view.projection = goalProjection(plan, goal, input);
  }
  return view;
}

function goalProjection(plan: PlanVersion, goal: StoredGoal, input: GoalProjectionInput): GoalProjectionDto {
  const months = monthsUntilTarget(input);
  return {
    monthly_rate: monthlyRate(input.annualReturn, input.inflation).toSignificantDigits(12).toFixed(),
    monthly_path: projectedPath(input, months).map((amount, i) => ({
      month: i + 1,
      date: addMonths(input.today, i + 1),
      projected_amount: amount.toFixed(input.dp),
    })),
    range: projectionRange(
      input,
      months,
      plan.document.investment_outlook.risk_capacity,
      rangeSeed(plan.id, plan.version, goal.goal_id),
    ),
  };
}
