import { ServiceError } from 'src/core/errors/service-error';
import { newId } from 'src/core/ids/ids';
import { Money } from 'src/core/money/money';
import type {
  ExternalAccountDto,
  FinancialPlanInputDto,
  GoalInputDto,
  InvestmentOutlookDto,
  LifeEventDto,
  UpdateFinancialPlanDto,
} from 'src/modules/wealth/dto/financial-plan-input.dto';
import type { GoalStatus, GoalType } from 'src/modules/wealth/dto/plan-fields';
import { addMonths, isCalendarDate } from 'src/modules/wealth/projections/calendar-months';
import { MAX_HORIZON_MONTHS } from 'src/modules/wealth/projections/goal-projection';
import type { RiskCapacity } from 'src/modules/wealth/projections/projection-range';

/** A goal as stored: what the partner wrote, amounts in the account's minor units. */
export interface StoredGoal {
  goal_id: string;
  name: string;
  goal_type: GoalType;
  target_amount: string;
  target_date: string;
  /** null when linked to the account (its equity is read instead). */
  current_amount: string | null;
  monthly_contribution: string;
  linked_to_account: boolean;
  status: GoalStatus;
}

export interface BudgetLine {
  name: string;
  monthly_amount: string;
}

/** The partner's side of a plan version (computed figures are derived when read). */
export interface PlanDocument {
  goals: StoredGoal[];
  life_events: Array<{ name: string; date: string; amount?: string }>;
  external_accounts: Array<{ name: string; type: 'asset' | 'liability'; balance: string }>;
  income: { total_monthly_income: string; sources: BudgetLine[] };
  expenses: { total_monthly_expenses: string; categories: BudgetLine[] };
  investment_outlook: {
    expected_return_rate: string;
    inflation_assumption: string | null;
    risk_capacity: RiskCapacity;
  };
}

export const DEFAULT_OUTLOOK: PlanDocument['investment_outlook'] = {
  expected_return_rate: '0.05',
  inflation_assumption: null,
  risk_capacity: 'medium',
};

/** Checks a plan's inputs against its account's currency and today's date (clock). */
export class PlanRules {
  constructor(
    private readonly dp: number,
    private readonly today: string,
  ) {}

  /** The amount in the currency's minor units, or 400 naming `param`. */
  amount(value: string, param: string, positive = false): string {
    const [, fraction = ''] = value.split('.');
    if (fraction.length > this.dp) {
      throw ServiceError.invalid(
        param,
        `${param} has more than ${this.dp} decimals for this account\u2019s currency.`,
      );
    }
    const amount = new Money(value);
    if (positive && amount.lte(0)) {
      throw ServiceError.invalid(param, `${param} must be greater than zero.`);
    }
    return amount.toFixed(this.dp);
  }

  date(value: string, param: string): string {
    if (!isCalendarDate(value)) {
      throw ServiceError.invalid(param, `${param} must be a calendar date written YYYY-MM-DD.`);
    }
    return value;
  }

  /** A whole plan from a PUT; goal ids given must be goals of `previous`. */
  plan(input: FinancialPlanInputDto, previous: PlanDocument | null): PlanDocument {
    const known = new Set((previous?.goals ?? []).map((g) => g.goal_id));
    const seen = new Set<string>();
    const goals = (input.goals ?? []).map((goal, i) => {
      const param = `goals[${i}].goal_id`;
      if (goal.goal_id != null && (!known.has(goal.goal_id) || seen.has(goal.goal_id))) {
        throw ServiceError.invalid(param, `${param} must be the id of one of this plan\u2019s goals, once.`);
      }
      if (goal.goal_id != null) {
        seen.add(goal.goal_id);
      }
      return this.goal(goal, `goals[${i}]`, goal.goal_id);
    });
    return this.update(input, {
      goals,
      life_events: [],
      external_accounts: [],
      income: { total_monthly_income: new Money(0).toFixed(this.dp), sources: [] },
      expenses: { total_monthly_expenses: new Money(0).toFixed(this.dp), categories: [] },
      investment_outlook: DEFAULT_OUTLOOK,
    });
  }

  /** The stored plan with a PATCH's fields applied. */
  update(input: UpdateFinancialPlanDto, current: PlanDocument): PlanDocument {
    return {
      ...current,
      life_events: input.life_events
        ? input.life_events.map((e, i) => this.lifeEvent(e, `life_events[${i}]`))
        : current.life_events,
      external_accounts: input.external_accounts
        ? input.external_accounts.map((a, i) => this.externalAccount(a, `external_accounts[${i}]`))
        : current.external_accounts,
      income: input.income
        ? {
            total_monthly_income: this.amount(
              input.income.total_monthly_income,
              'income.total_monthly_income',
            ),
            sources: (input.income.sources ?? []).map((s, i) => this.line(s, `income.sources[${i}]`)),
          }
        : current.income,
      expenses: input.expenses
        ? {
            total_monthly_expenses: this.amount(
              input.expenses.total_monthly_expenses,
              'expenses.total_monthly_expenses',
            ),
            categories: (input.expenses.categories ?? []).map((c, i) =>
              this.line(c, `expenses.categories[${i}]`),
            ),
          }
        : current.expenses,
      investment_outlook: input.investment_outlook
        ? this.outlook(input.investment_outlook, current.investment_outlook)
        : current.investment_outlook,
    };
  }

  /** A new goal, or `existing` with the fields given changed (a null field counts as not sent). */
  goal(input: Partial<GoalInputDto>, prefix: string, goalId?: string, existing?: StoredGoal): StoredGoal {
    const p = (field: string) => (prefix ? `${prefix}.${field}` : field);
    const required = <T>(value: T | undefined, field: string): T => {
      if (value === undefined || value === null) {
        throw ServiceError.missing(p(field), `Missing required field ${p(field)}.`);
      }
      return value;
    };
    const linked = input.linked_to_account ?? existing?.linked_to_account ?? false;
    if (linked && input.current_amount != null) {
      throw ServiceError.invalid(
        p('current_amount'),
        `${p('current_amount')} cannot be set on a goal linked to the account: its equity is used.`,
      );
    }
    const targetDate =
      input.target_date != null
        ? this.targetDate(input.target_date, p('target_date'))
        : existing?.target_date;
    const current = input.current_amount ?? existing?.current_amount ?? '0';
    return {
      goal_id: existing?.goal_id ?? goalId ?? newId('goal'),
      name: input.name ?? required(existing?.name, 'name'),
      goal_type: input.goal_type ?? required(existing?.goal_type, 'goal_type'),
      target_amount:
        input.target_amount != null
          ? this.amount(input.target_amount, p('target_amount'), true)
          : required(existing?.target_amount, 'target_amount'),
      target_date: required(targetDate, 'target_date'),
      current_amount: linked ? null : this.amount(current, p('current_amount')),
      monthly_contribution: this.amount(
        input.monthly_contribution ?? existing?.monthly_contribution ?? '0',
        p('monthly_contribution'),
      ),
      linked_to_account: linked,
      status: input.status ?? existing?.status ?? 'active',
    };
  }

  private targetDate(value: string, param: string): string {
    this.date(value, param);
    if (value <= this.today || value > addMonths(this.today, MAX_HORIZON_MONTHS)) {
      throw ServiceError.invalid(param, `${param} must be after today (${this.today}) and within 60 years.`);
    }
    return value;
  }

  private lifeEvent(e: LifeEventDto, prefix: string): PlanDocument['life_events'][number] {
    return {
      name: e.name,
      date: this.date(e.date, `${prefix}.date`),
      ...(e.amount != null ? { amount: this.amount(e.amount, `${prefix}.amount`) } : {}),
    };
  }

  private externalAccount(a: ExternalAccountDto, prefix: string): PlanDocument['external_accounts'][number] {
    return { name: a.name, type: a.type, balance: this.amount(a.balance, `${prefix}.balance`) };
  }

  private line(l: BudgetLine, prefix: string): BudgetLine {
    return { name: l.name, monthly_amount: this.amount(l.monthly_amount, `${prefix}.monthly_amount`) };
  }

  private outlook(
    input: InvestmentOutlookDto,
    current: PlanDocument['investment_outlook'],
  ): PlanDocument['investment_outlook'] {
    const rate = (value: string, param: string, min: string, max: string) => {
      const r = new Money(value);
      if (r.lt(min) || r.gt(max)) {
        throw ServiceError.invalid(
          param,
          `${param} must be from ${min} to ${max} (a yearly decimal fraction).`,
        );
      }
      return r.toFixed();
    };
    return {
      expected_return_rate:
        input.expected_return_rate != null
          ? rate(input.expected_return_rate, 'investment_outlook.expected_return_rate', '-0.5', '1')
          : current.expected_return_rate,
      inflation_assumption:
        input.inflation_assumption === null
          ? null
          : input.inflation_assumption !== undefined
            ? rate(input.inflation_assumption, 'investment_outlook.inflation_assumption', '-0.1', '0.5')
            : current.inflation_assumption,
      risk_capacity: input.risk_capacity ?? current.risk_capacity,
    };
  }
}
